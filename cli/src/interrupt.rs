//! Ctrl-C (SIGINT). The first finishes the command cleanly, as the command says: `selfplay`
//! reports the games played so far, `play` writes the game so far. A second quits at once,
//! should finishing hang (on a standard output no one reads, say).

/// The exit code of a command that Ctrl-C ended, as shells give one that SIGINT killed.
const EXIT_CODE: i32 = 130;

/// Runs `finish` on the first Ctrl-C. It runs on a thread of its own, so that a second Ctrl-C
/// is heard while it runs, and quits at once.
pub fn on_interrupt(finish: impl FnOnce() + Send + 'static) {
    let mut finish = Some(finish);
    // Should the handler fail to install, Ctrl-C stops the command at once, as it always did.
    let _ = ctrlc::set_handler(move || match finish.take() {
        Some(finish) => drop(std::thread::spawn(finish)),
        None => quit(),
    });
}

/// Ends the command as interrupted.
pub fn quit() -> ! {
    std::process::exit(EXIT_CODE)
}
