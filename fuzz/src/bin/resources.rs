//! Rule files under a memory and a time cap: going over either is a finding (see
//! `fairy_fuzz::resources`).

#[global_allocator]
static ALLOCATOR: fairy_fuzz::caps::Capped = fairy_fuzz::caps::Capped;

fn main() {
    afl::fuzz!(|data: &[u8]| fairy_fuzz::resources(data));
}
