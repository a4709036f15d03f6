//! Generates the analysis tables (`crates/mcr-tables`) into `OUT_DIR`, where
//! `shape::shanten::table` embeds them: a process reads them back in milliseconds instead
//! of computing them for most of a second.

use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    for (name, (kinds, chows)) in [
        ("suits", mcr_tables::SUITS),
        ("honours", mcr_tables::HONOURS),
    ] {
        let bytes = mcr_tables::generate(kinds, chows).encode();
        std::fs::write(out.join(format!("{name}.tables")), bytes).expect("OUT_DIR is writable");
    }
    println!("cargo::rerun-if-changed=build.rs");
}
