//! Native hooks: rules that fit no general concept of the language, written in Rust and named
//! from a rule file with `hook NAME`. This is the one place where they are registered.
//!
//! The four shipped games need none: everything they do is a general concept of the language.
//! A hook is the last resort, and `fairy check` rejects any name not listed here.

/// A registered hook: its name in rule files and what it does.
#[derive(Clone, Copy, Debug)]
pub struct Hook {
    pub name: &'static str,
    pub summary: &'static str,
}

/// Every hook the engine knows.
pub const HOOKS: &[Hook] = &[];

pub fn find(name: &str) -> Option<&'static Hook> {
    HOOKS.iter().find(|hook| hook.name == name)
}
