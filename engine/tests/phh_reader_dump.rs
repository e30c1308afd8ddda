//! A record of everything the PHH reader does, for proving that a rewrite of the reader reads
//! exactly as the one before it: every hand of every corpus file (the shared corpora and every
//! `.phh`/`.phhs` in the repository), and the result (the hands, or the error's kind, line,
//! column and message) of `parse_phh`, `parse_phhs` and `parse_file` on thousands of
//! truncated, mutated and garbage texts.
//!
//! `PHH_DUMP_DIR=/tmp/before cargo test --release -p floor-engine --test phh_reader_dump --
//! --ignored` writes one file per group into the directory; run it on the old reader and the
//! new one and `diff -r` the two directories: they must be identical.

use floor_engine::phh::{parse_file, parse_phh, parse_phhs, PhhError, PhhHand};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

mod support;
use support::{garbage, Rng};

fn show<T: std::fmt::Debug>(result: &Result<T, PhhError>) -> String {
    match result {
        Ok(v) => format!("ok {v:?}"),
        Err(e) => format!("err {:?} {} {:?} {}", e.kind, e.line, e.col, e),
    }
}

/// The three readers' results on one text, on one line each.
fn record(out: &mut String, label: &str, text: &str) {
    let file: Result<Vec<PhhHand>, PhhError> = parse_file(text);
    let _ = writeln!(out, "== {label} {:?}", text);
    let _ = writeln!(out, "file  {}", show(&file));
    let _ = writeln!(out, "phh   {}", show(&parse_phh(text)));
    let _ = writeln!(out, "phhs  {}", show(&parse_phhs(text)));
}

fn corpus_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    let mut stack = vec![
        root.join("../shared/data/phh"),
        root.join("../shared/data/crosscheck"),
        root.join("engine"),
        root.join("host"),
        root.join("rulesets"),
        root.join("tests"),
        root.join("plugins"),
    ];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "target") {
                    stack.push(path);
                }
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("phh" | "phhs")
            ) {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Texts the malformed inputs are made from: hands with every quirk, fields in unusual orders.
fn seeds() -> Vec<String> {
    let minimal = |blinds: &str, stacks: &str, actions: &str| {
        format!(
            "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = {blinds}\nmin_bet = 2\nstarting_stacks = {stacks}\nactions = {actions}\n"
        )
    };
    let mut seeds = vec![
        format!(
            "[1]\n{}\n[2]\n{}",
            minimal(
                "[0.5, 1]",
                "[inf, 200]",
                "['d dh p1 AhKd', 'd dh p2 ????', 'p2 cbr 3.5 # c', 'p1 sm -']"
            ),
            minimal(
                "[0.5, -1]",
                "[inf, 200]",
                "[\n 'd dh p1 AhKd', # x\n 'p1 cbr 3.25', 'p2 sm',\n]"
            )
        ),
        // Actions before the stacks, quoted keys, escapes, every field type.
        "# typed by hand\nvariant = \"NT\"\nactions = ['d dh p1 AhKh', \"d dh p2 7c7d # \\u00e9\", 'p2 cbr 6', 'p1 f']\n\
         \"antes\" = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [200, 1_000]\n\
         time = 16:46:03\ndate = 2009-07-19 16:46:03\nday = 19\nhand = 'abc'\nseats = [1, 2]\n\
         players = [\"Dan \\\"the man\\\"\", 'Zoë']\ntime_limit = inf\ntime_banks = [1.5, inf]\n\
         ante_trimming_status = true\ncustom = [1.50, true, 2009-07-19, -inf, [1, [2]], 'x']\n\
         finishing_stacks = [199, 1001]\nwinnings = [0, 3]\nbring_in = 1\nsmall_bet = 2\nbig_bet = 4\n"
            .to_string(),
        "variant = 'FT'\nantes = [1, 1, 1]\nblinds_or_straddles = [2, 4, 0]\nsmall_bet = 4\nbig_bet = 8\n\
         starting_stacks = [100, 100, 100]\nactions = ['d dh p1 ??????', 'd dh p2 AsKs', 'd dh p3 2c2d', \
         'p3 cbr 8', 'p1 f', 'p2 cc', 'd db AhAdAc', 'p2 cbr 8', 'p3 cc', 'p2 sd', 'p3 sd 2c', 'p2 sm -', 'p3 sm 2d??']\r\n"
            .to_string(),
    ];
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data");
    for (file, hands) in [
        ("phh/ps_NLH_handhq_334-OBFUSCATED.phhs", 3),
        ("phh/wsop-2019-42-3-00-01-07.phh", 1),
        ("crosscheck/random-plo-500.phhs", 2),
    ] {
        if let Ok(text) = std::fs::read_to_string(shared.join(file)) {
            let end = text
                .match_indices("\n[")
                .nth(hands - 1)
                .map_or(text.len(), |(i, _)| i + 1);
            seeds.push(text[..end].to_string());
        }
    }
    seeds
}

#[test]
#[ignore = "a tool: writes the dump into PHH_DUMP_DIR"]
fn dump_every_reading() {
    let Ok(dir) = std::env::var("PHH_DUMP_DIR") else {
        println!("PHH_DUMP_DIR is not set; nothing written");
        return;
    };
    let dir = PathBuf::from(dir);
    std::fs::create_dir_all(&dir).expect("the dump directory");
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text).expect("writing the dump");
    };

    // Every corpus file: each hand on its own lines.
    let mut out = String::new();
    for path in corpus_files() {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let name = path
            .components()
            .rev()
            .take(2)
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("<");
        let _ = writeln!(out, "== {name}");
        match parse_file(&text) {
            Ok(hands) => {
                for hand in hands {
                    let _ = writeln!(out, "{hand:?}");
                }
            }
            Err(e) => {
                let _ = writeln!(out, "err {:?} {}", e.kind, e);
            }
        }
        let _ = writeln!(out, "phh  {}", show(&parse_phh(&text).map(|_| ())));
        let _ = writeln!(out, "phhs {}", show(&parse_phhs(&text).map(|h| h.len())));
    }
    write("corpus.txt", &out);

    for (i, seed) in seeds().iter().enumerate() {
        let mut out = String::new();
        for (at, _) in seed.char_indices() {
            record(&mut out, &format!("truncated {at}"), &seed[..at]);
        }
        write(&format!("truncated-{i}.txt"), &out);

        let alphabet: Vec<char> = "[]'\"#=,.-+_ \n\r\t0123456789eEinfpdhbcrsm?AKQJTcdhs’{}\\:uxaty"
            .chars()
            .collect();
        let mut rng = Rng(0x5eed_1234_abcd_0001 + i as u64);
        let mut out = String::new();
        for n in 0..4000 {
            let mut chars: Vec<char> = seed.chars().collect();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(chars.len());
                match rng.below(4) {
                    0 => chars[at] = alphabet[rng.below(alphabet.len())],
                    1 => chars.insert(at, alphabet[rng.below(alphabet.len())]),
                    2 => {
                        chars.remove(at);
                    }
                    _ => {
                        // Swap two lines: fields in another order, headers moved.
                        let text: String = chars.iter().collect();
                        let mut lines: Vec<&str> = text.split('\n').collect();
                        let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
                        lines.swap(a, b);
                        chars = lines.join("\n").chars().collect();
                    }
                }
                if chars.is_empty() {
                    break;
                }
            }
            let text: String = chars.into_iter().collect();
            record(&mut out, &format!("mutated {n}"), &text);
        }
        write(&format!("mutated-{i}.txt"), &out);
    }

    let mut rng = Rng(0xdead_beef_cafe_f00d);
    let mut out = String::new();
    for n in 0..6000 {
        let text = garbage(&mut rng, 14);
        record(&mut out, &format!("garbage {n}"), &text);
    }
    write("garbage.txt", &out);
}
