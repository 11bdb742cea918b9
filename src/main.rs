fn main() -> std::process::ExitCode {
    fairy::cli::main()
}
