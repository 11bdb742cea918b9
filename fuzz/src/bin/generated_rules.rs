fn main() {
    afl::fuzz!(|data: &[u8]| fairy_fuzz::generated_rules(data));
}
