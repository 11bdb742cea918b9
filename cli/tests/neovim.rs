//! A real editor drives `fairy lsp`: Neovim, headless, with the README's set-up
//! (`editors/neovim/fairy.lua`), opens a shipped rule file with one mistake and reports the
//! diagnostic it received through `vim.diagnostic.get()`.
//!
//! It needs Debian's `neovim` (`.ci/run` installs it). Without it, it fails and says so;
//! `FAIRY_SKIP_NEOVIM=1` skips it on a machine that cannot have it.

use std::path::Path;
use std::process::Command;

#[test]
fn neovim_shows_the_diagnostic_of_a_mistake() {
    if std::env::var_os("FAIRY_SKIP_NEOVIM").is_some() {
        eprintln!("FAIRY_SKIP_NEOVIM is set: the Neovim test is skipped");
        return;
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let chess = std::fs::read_to_string(repo.join("rules/chess.rules")).expect("chess.rules");
    let broken = chess.replace("slide diagonal }", "slide diagonl }");
    let folder = std::env::temp_dir().join(format!("fairy-neovim-{}", std::process::id()));
    std::fs::create_dir_all(&folder).expect("a temporary folder");
    let file = folder.join("chess.rules");
    let output = folder.join("diagnostics.txt");
    std::fs::write(&file, &broken).expect("the rule file is written");

    // `fairy` on the PATH, as the snippet runs it by name.
    let fairy = Path::new(env!("CARGO_BIN_EXE_fairy"));
    let path = std::env::join_paths(
        std::iter::once(fairy.parent().expect("a folder").to_path_buf()).chain(
            std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
        ),
    )
    .expect("a PATH");
    let run = Command::new("nvim")
        .args(["--headless", "-u", "NONE", "-i", "NONE", "-n"])
        .arg("-c")
        .arg(format!("luafile {}", repo.join("editors/neovim/fairy.lua").display()))
        .arg("-c")
        .arg(format!("luafile {}", repo.join("editors/neovim/diagnostics.lua").display()))
        .env("PATH", path)
        .env("FAIRY_TEST_FILE", &file)
        .env("FAIRY_TEST_OUTPUT", &output)
        .output()
        .unwrap_or_else(|error| {
            panic!("cannot run nvim ({error}): install Neovim (apt-get install neovim), or set FAIRY_SKIP_NEOVIM=1")
        });
    assert!(
        run.status.success(),
        "nvim failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let reported = std::fs::read_to_string(&output).expect("Neovim wrote the diagnostics");
    std::fs::remove_dir_all(&folder).ok();
    eprintln!("Neovim's vim.diagnostic.get():\n{reported}");
    let line = 1 + broken[..broken.find("diagonl").expect("the mistake")]
        .matches('\n')
        .count();
    let expected = format!("{line}:24 1 syntax-error unexpected `diagonl`");
    assert_eq!(reported.trim_end(), expected);
}
