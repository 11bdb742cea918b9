fn main() {
    afl::fuzz!(|data: &[u8]| fairy_fuzz::rule_file(data));
}
