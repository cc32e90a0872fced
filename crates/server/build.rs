//! Rebuilds the server when a migration is added: `sqlx::migrate!` embeds `migrations/` when the
//! crate is compiled, and a new file alone would not tell cargo to compile it again.

#![allow(clippy::print_stdout)]

fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
