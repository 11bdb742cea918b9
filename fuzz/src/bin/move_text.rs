fn main() {
    // Compiled before the loop, so that every input runs the same code.
    fairy_fuzz::games();
    afl::fuzz!(|data: &[u8]| fairy_fuzz::move_text(data));
}
