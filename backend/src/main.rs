//! `lvlx`: the LVLX server and its administration commands (see `lvlx_backend::cli`).

fn main() -> std::process::ExitCode {
    lvlx_backend::cli::main()
}
