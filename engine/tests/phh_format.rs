//! The PHH reader and writer against the real corpora in `../shared/data` (a test fails and
//! says what is missing when they are absent) and against hand-made and malformed inputs.

use floor_engine::cards::Card;
use floor_engine::phh::{
    parse_file, parse_phh, parse_phhs, write_phh, write_phhs, Action, ActionLine, PhhErrorKind,
    PhhHand, Scale, Stack, Value,
};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

mod support;
use support::{garbage, Rng};

/// A directory of the shared corpora (`../shared/data/SUB` beside the workspace). Missing, the
/// test fails and says what is missing: the corpus checks are never skipped in silence.
fn data_dir(sub: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/data")
        .join(sub);
    assert!(
        dir.is_dir(),
        "{} is missing: these tests read the shared PHH corpora (real online hands, the WSOP \
         hand, PokerKit's cross-check hands) from ../shared/data beside the workspace",
        dir.display()
    );
    dir
}

/// A file of the shared corpora; missing or unreadable, the test fails and says which.
fn read(sub: &str, name: &str) -> String {
    let path = data_dir(sub).join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (a file of the shared corpora)", path.display()))
}

/// Every `.phh`/`.phhs` file of the corpora, parsed.
fn corpus() -> Vec<(String, String, Vec<PhhHand>)> {
    let mut out = Vec::new();
    for sub in ["phh", "crosscheck"] {
        let dir = data_dir(sub);
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        paths.sort();
        for path in paths {
            if !matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("phh" | "phhs")
            ) {
                continue;
            }
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_string();
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
            let hands = parse_file(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            out.push((name, text, hands));
        }
    }
    assert!(
        out.len() >= 5,
        "the shared corpora hold {} PHH files, expected at least 5 (two online logs, the WSOP \
         hand, two cross-check files)",
        out.len()
    );
    out
}

#[test]
fn every_corpus_hand_parses_with_the_expected_counts() {
    let expected = [
        ("ps_NLH_handhq_334", 439),
        ("ftp_NLH_handhq_406", 61),
        ("random-nlhe-2k", 2000),
        ("random-plo-500", 500),
        ("wsop-2019", 1),
    ];
    let corpus = corpus();
    for (prefix, count) in expected {
        let (name, _, hands) = corpus
            .iter()
            .find(|(name, _, _)| name.starts_with(prefix))
            .unwrap_or_else(|| panic!("no file {prefix}* in the corpus"));
        assert_eq!(hands.len(), count, "{name}");
        for (i, hand) in hands.iter().enumerate() {
            assert!(hand.players() >= 2, "{name} hand {}", i + 1);
            assert_eq!(hand.antes.len(), hand.players());
            assert!(!hand.actions.is_empty());
            if name.ends_with(".phhs") {
                assert_eq!(
                    hand.number,
                    Some(i + 1),
                    "{name}: hands are numbered from 1 without gaps"
                );
            }
        }
    }
}

#[test]
fn every_corpus_hand_round_trips() {
    for (name, text, hands) in corpus() {
        // The whole file: same hands, same lines (the writer keeps the source's layout).
        let written = write_phhs(&hands);
        let again = parse_phhs(&written).unwrap_or_else(|e| panic!("{name} re-read: {e}"));
        if name.ends_with(".phhs") {
            assert_eq!(again, hands, "{name}");
            // The writer keeps the source's field order and hand numbers; amounts are written in
            // canonical form (`671.9`, not `671.90`), so only the field names are compared.
            assert_same_keys(&written, &text, &name);
        }
        // Each hand alone, as a .phh file.
        for hand in &hands {
            let single = parse_phh(&write_phh(hand))
                .unwrap_or_else(|e| panic!("{name} [{:?}]: {e}", hand.number));
            assert!(
                single.same_record(&PhhHand {
                    number: None,
                    ..hand.clone()
                }),
                "{name} [{:?}]",
                hand.number
            );
            assert_eq!(single.scale, hand.scale);
        }
    }
}

#[test]
fn decimal_amounts_are_scaled_exactly() {
    let text = read("phh", "ps_NLH_handhq_334-OBFUSCATED.phhs");
    let hands = parse_phhs(&text).unwrap();
    let first = &hands[0];
    // starting_stacks = [224, 600, 612, 141, 126.30, 674.70, 302.80, 363]; winnings 42.75.
    assert_eq!(first.scale, Scale::from_decimals(2).unwrap());
    assert_eq!(first.scale.factor(), 100);
    assert_eq!(first.starting_stacks[4], Stack::Chips(12630));
    assert_eq!(first.starting_stacks[0], Stack::Chips(22400));
    assert_eq!(first.blinds_or_straddles[..2], [300, 600]);
    assert_eq!(first.min_bet, Some(600));
    assert_eq!(first.winnings.as_ref().unwrap()[5], 4275);
    assert_eq!(
        first.actions[13].action,
        Action::CompleteBetRaiseTo {
            player: 7,
            amount: 1800
        }
    );
    assert!(write_phh(first)
        .contains("starting_stacks = [224, 600, 612, 141, 126.30, 674.70, 302.80, 363]"));
    // Hands whose amounts are all whole keep scale 1.
    assert!(hands.iter().any(|h| h.scale == Scale::ONE));

    // A hand that needs only one decimal place gets scale 10; an action amount counts too.
    let hand = parse_phh(&minimal("[0.5, 1]", "[100, 200]", "['p1 cbr 2.25']")).unwrap();
    assert_eq!(hand.scale.factor(), 100);
    assert_eq!(hand.blinds_or_straddles, vec![50, 100]);
    assert_eq!(
        hand.actions[0].action,
        Action::CompleteBetRaiseTo {
            player: 0,
            amount: 225
        }
    );
    let hand = parse_phh(&minimal("[0.50, 1.0]", "[1e2, 200]", "[]")).unwrap();
    assert_eq!(hand.scale.factor(), 10);
    assert_eq!(
        hand.starting_stacks,
        vec![Stack::Chips(1000), Stack::Chips(2000)]
    );
    // 0.1 + 0.2 stays exact.
    let hand = parse_phh(&minimal("[0.1, 0.2]", "[0.3, 3]", "[]")).unwrap();
    assert_eq!(hand.blinds_or_straddles.iter().sum::<i64>(), 3);
    assert_eq!(hand.starting_stacks[0], Stack::Chips(3));
}

#[test]
fn negative_blinds_are_posts() {
    let text = read("phh", "ps_NLH_handhq_334-OBFUSCATED.phhs");
    let hands = parse_phhs(&text).unwrap();
    let posts: Vec<&PhhHand> = hands
        .iter()
        .filter(|h| h.blinds_or_straddles.iter().any(|&b| b < 0))
        .collect();
    assert_eq!(posts.len(), 3);
    for hand in posts {
        let big = hand.blinds_or_straddles[1];
        assert!(
            hand.blinds_or_straddles.contains(&-big),
            "a post of one big blind"
        );
        assert!(write_phh(hand).contains(", -6,") || write_phh(hand).contains(", -6]"));
    }
}

#[test]
fn unknown_stacks_are_inf() {
    let hand = parse_phh(&minimal(
        "[1, 2]",
        "[inf, 200]",
        "['d dh p1 ????', 'd dh p2 ??Ad']",
    ))
    .unwrap();
    assert_eq!(
        hand.starting_stacks,
        vec![Stack::Unknown, Stack::Chips(200)]
    );
    assert_eq!(
        hand.actions[1].action,
        Action::DealHole {
            player: 1,
            cards: vec![None, Some("Ad".parse::<Card>().unwrap())].into()
        }
    );
    assert!(write_phh(&hand).contains("starting_stacks = [inf, 200]"));
    let e = parse_phh(&minimal("[1, inf]", "[100, 200]", "[]")).unwrap_err();
    assert_eq!((e.kind, e.line, e.col), (PhhErrorKind::Amount, 3, Some(27)));
}

#[test]
fn the_wsop_hand_keeps_its_non_ascii_event_and_everything_else() {
    let text = read("phh", "wsop-2019-42-3-00-01-07.phh");
    let hand = parse_phh(&text).unwrap();
    assert_eq!(hand.number, None);
    assert_eq!(hand.variant, "NT");
    assert_eq!(hand.antes, vec![0, 500000, 0, 0, 0, 0, 0, 0]);
    assert!(hand.ante_trimming_status());
    let event = hand.field("event").and_then(Value::as_str).unwrap();
    assert!(event.contains("Hold’em"), "{event}");
    assert_eq!(hand.field("year"), Some(&Value::Integer(2019)));
    assert_eq!(hand.finishing_stacks.as_ref().map(Vec::len), Some(8));
    assert_eq!(hand.actions.len(), 30);
    assert!(hand.actions.iter().all(|a| a.line == 7));
    assert_eq!(
        hand.actions[29].action,
        Action::ShowMuck {
            player: 0,
            cards: Some(vec![Some("Qd".parse().unwrap()), Some("Jd".parse().unwrap())].into())
        }
    );
    // Written back byte for byte.
    assert_eq!(write_phh(&hand), text);
}

#[test]
fn files_without_a_final_newline() {
    let text = read("phh", "ftp_NLH_handhq_406-OBFUSCATED.phhs");
    assert!(!text.ends_with('\n'));
    assert_eq!(parse_phhs(&text).unwrap().len(), 61);
    let text = minimal("[1, 2]", "[100, 200]", "['p1 f']");
    let hand = parse_phh(text.trim_end()).unwrap();
    assert_eq!(hand.actions.len(), 1);
    let two = format!("[1]\n{text}\n[2]\n{}", text.trim_end());
    assert_eq!(parse_phhs(&two).unwrap().len(), 2);
    // CRLF line endings read the same.
    let crlf = two.replace('\n', "\r\n");
    assert_eq!(parse_phhs(&crlf).unwrap(), parse_phhs(&two).unwrap());
}

#[test]
fn phhs_hands_remember_their_headers_and_lines() {
    let text = format!(
        "# a file comment\n\n[1]\n{}\n\n[2]\n{}",
        minimal("[1, 2]", "[10, 20]", "[]"),
        minimal("[1, 2]", "[10, 20]", "['p1 f']")
    );
    let hands = parse_phhs(&text).unwrap();
    assert_eq!((hands[0].number, hands[0].line), (Some(1), 3));
    assert_eq!((hands[1].number, hands[1].line), (Some(2), 12));
    assert_eq!(hands[1].actions[0].line, 18);
    assert_eq!(parse_file(&text).unwrap(), hands);
    // A .phh is one hand; parse_file returns it as a list of one.
    let single = minimal("[1, 2]", "[10, 20]", "[]");
    assert_eq!(
        parse_file(&single).unwrap(),
        vec![parse_phh(&single).unwrap()]
    );
    // Each reader refuses the other's form and says which reader to use.
    let e = parse_phh(&text).expect_err("a .phhs read as one hand");
    assert_eq!((e.kind, e.line), (PhhErrorKind::Syntax, 3), "{e}");
    assert!(
        e.to_string()
            .contains("`[1]` starts a hand of a .phhs file; a .phh file holds one hand"),
        "{e}"
    );
    let e = parse_phhs(&single).expect_err("a .phh read as a list");
    assert_eq!(
        (e.kind, e.line, e.col),
        (PhhErrorKind::Syntax, 1, Some(1)),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("`variant` is outside any hand: in a .phhs file every field belongs"),
        "{e}"
    );
    assert_eq!(parse_phhs("").unwrap(), vec![]);
}

#[test]
fn toml_features_used_by_hand_written_files() {
    let text = r#"
# A hand typed by hand.
variant = "NT"          # double quotes
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 200, 1_000]
actions = [
  # Pre-flop
  'd dh p1 AhKh', 'd dh p2 ????',
  "d dh p3 7c7d # p3 looks nervous",
  '  p3   cbr 6  ',
  'p1 cc',
  '',
  '# the big blind thinks',
  'p2 f # finally',
  'd db 2c3c4c',
  'p1 cc', 'p3 cc',
  'd db 5c', 'p1 cc', 'p3 cc', 'd db 6c', 'p1 cc', 'p3 cc',
  'p1 sm -', 'p3 sm',
]
time = 16:46:03
hand = 'abc'
players = ["Dan \"the man\"", 'Zoë', 'O\Brien']
custom_field = {a}
"#
    .replace("{a}", "[1.50, true, 2009-07-19, -inf]");
    let hand = parse_phh(&text).unwrap();
    assert_eq!(hand.starting_stacks[2], Stack::Chips(1000));
    let lines: Vec<u32> = hand.actions.iter().map(|a| a.line).collect();
    assert_eq!(lines[..6], [10, 10, 11, 12, 13, 14]);
    assert_eq!(
        hand.actions[2].commentary.as_deref(),
        Some("p3 looks nervous")
    );
    assert_eq!(
        hand.actions[3].action,
        Action::CompleteBetRaiseTo {
            player: 2,
            amount: 6
        }
    );
    assert_eq!(
        hand.actions[5],
        ActionLine {
            action: Action::NoOp,
            commentary: None,
            line: 14
        }
    );
    assert_eq!(
        hand.actions[6].commentary.as_deref(),
        Some("the big blind thinks")
    );
    // `sm -` shows the cards dealt earlier.
    let shown = &hand.actions[hand.actions.len() - 2].action;
    let ah_kh = vec![Some("Ah".parse().unwrap()), Some("Kh".parse().unwrap())];
    assert_eq!(
        shown,
        &Action::ShowMuck {
            player: 0,
            cards: Some(ah_kh.into())
        }
    );
    assert_eq!(
        hand.actions.last().map(|a| &a.action),
        Some(&Action::ShowMuck {
            player: 2,
            cards: None
        })
    );
    assert_eq!(
        hand.field("time"),
        Some(&Value::DateTime("16:46:03".into()))
    );
    assert_eq!(
        hand.field("players")
            .and_then(Value::as_array)
            .map(|p| p[0].clone()),
        Some(Value::String("Dan \"the man\"".into()))
    );
    // Unknown fields survive a round trip unchanged.
    let written = write_phh(&hand);
    assert!(
        written.contains("custom_field = [1.50, true, 2009-07-19, -inf]"),
        "{written}"
    );
    assert!(
        written.contains(r#"players = ['Dan "the man"', 'Zoë', 'O\Brien']"#),
        "{written}"
    );
    assert!(
        written.contains("'d dh p3 7c7d # p3 looks nervous'"),
        "{written}"
    );
    assert!(parse_phh(&written).unwrap().same_record(&hand));
}

#[test]
fn hands_built_in_code_are_written_in_canonical_order() {
    let hand = PhhHand {
        variant: "NT".into(),
        antes: vec![0, 0],
        blinds_or_straddles: vec![50, 100],
        min_bet: Some(100),
        starting_stacks: vec![Stack::Chips(10000), Stack::Chips(12345)],
        actions: vec![ActionLine::new(Action::Fold { player: 1 })],
        finishing_stacks: Some(vec![10100, 12245]),
        scale: Scale::from_decimals(2).unwrap(),
        fields: vec![("venue".into(), Value::String("It's home".into()))],
        ..PhhHand::default()
    };
    let text = write_phh(&hand);
    assert_eq!(
        text,
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [0.50, 1]\nmin_bet = 1\n\
         starting_stacks = [100, 123.45]\nactions = ['p2 f']\nvenue = \"It's home\"\nfinishing_stacks = [101, 122.45]\n"
    );
    let back = parse_phh(&text).unwrap();
    assert!(back.same_record(&hand));
    assert_eq!(back.blinds_or_straddles, hand.blinds_or_straddles);
}

/// A two-player no-limit hand with the given blinds, stacks and actions, on lines 1–6.
fn minimal(blinds: &str, stacks: &str, actions: &str) -> String {
    format!(
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = {blinds}\nmin_bet = 2\nstarting_stacks = {stacks}\nactions = {actions}\n"
    )
}

#[test]
fn malformed_inputs_give_clear_errors_with_line_and_column() {
    let ok = minimal("[1, 2]", "[100, 200]", "['p1 f']");
    let cases: Vec<(String, PhhErrorKind, usize, Option<usize>, &str)> = vec![
        (
            ok.replace("['p1 f']", "['p1 cbr']"),
            PhhErrorKind::Notation,
            6,
            Some(19),
            "`cbr` needs an amount",
        ),
        (
            ok.replace("['p1 f']", "['p1 f', 'p3 cc']"),
            PhhErrorKind::Notation,
            6,
            Some(21),
            "the hand has 2 players",
        ),
        (
            ok.replace("['p1 f']", "['d dh p1 AhKx']"),
            PhhErrorKind::Notation,
            6,
            Some(23),
            "`Kx` is not a card",
        ),
        (
            ok.replace("['p1 f']", "['p1 raise 6']"),
            PhhErrorKind::Notation,
            6,
            Some(16),
            "not an action",
        ),
        (
            ok.replace("['p1 f']", "['d db ??']"),
            PhhErrorKind::Notation,
            6,
            Some(18),
            "board cards must be known",
        ),
        (
            ok.replace("['p1 f']", "['p1 sm -']"),
            PhhErrorKind::Notation,
            6,
            Some(19),
            "no `d dh p1",
        ),
        (
            ok.replace("['p1 f']", "['p1 cbr -3']"),
            PhhErrorKind::Notation,
            6,
            Some(20),
            "cannot be negative",
        ),
        (
            ok.replace("['p1 f']", "['p1 f', 3]"),
            PhhErrorKind::WrongType,
            6,
            Some(20),
            "must be strings",
        ),
        (
            ok.replace("actions = ['p1 f']\n", ""),
            PhhErrorKind::MissingField,
            1,
            None,
            "missing required field `actions`",
        ),
        (
            ok.replace("min_bet = 2\n", ""),
            PhhErrorKind::MissingField,
            1,
            None,
            "`min_bet` (variant `NT` needs it)",
        ),
        (
            ok.replace("antes = [0, 0]", "antes = [0, 0, 0]"),
            PhhErrorKind::WrongLength,
            2,
            Some(9),
            "array `antes` has 3 entries but there are 2 players",
        ),
        (
            ok.replace("[100, 200]", "[100, 'x']"),
            PhhErrorKind::WrongType,
            5,
            Some(25),
            "must be numbers, found a string",
        ),
        (
            ok.replace("[100, 200]", "[100, -200]"),
            PhhErrorKind::Amount,
            5,
            Some(25),
            "cannot be negative",
        ),
        (
            ok.replace("[100, 200]", "[100, 0.0000000000000000001]"),
            PhhErrorKind::Amount,
            5,
            Some(25),
            "decimal places",
        ),
        (
            ok.replace("[100, 200]", "[100, 92233720368547758.08]"),
            PhhErrorKind::Amount,
            5,
            Some(25),
            "too large",
        ),
        (
            ok.replace("[100, 200]", "[100, 99999999999999999999]"),
            PhhErrorKind::Syntax,
            5,
            Some(25),
            "too large",
        ),
        (
            ok.replace("variant = 'NT'", "variant = 'NT"),
            PhhErrorKind::Syntax,
            1,
            Some(11),
            "unterminated string",
        ),
        (
            ok.replace("variant = 'NT'", "variant = NT"),
            PhhErrorKind::Syntax,
            1,
            Some(11),
            "strings need quotes",
        ),
        (
            ok.replace("variant = 'NT'", "variant 'NT'"),
            PhhErrorKind::Syntax,
            1,
            Some(9),
            "expected `=` after `variant`",
        ),
        (
            ok.replace("variant = 'NT'", "variant = 'NT' 'x'"),
            PhhErrorKind::Syntax,
            1,
            Some(16),
            "one `key = value`",
        ),
        (
            ok.replace("variant = 'NT'", "variant = 7"),
            PhhErrorKind::WrongType,
            1,
            Some(11),
            "must be a string",
        ),
        (
            ok.replace("['p1 f']", "['p1 f',"),
            PhhErrorKind::Syntax,
            6,
            Some(11),
            "unterminated array",
        ),
        (
            ok.replace("['p1 f']", "['p1 f' 'p2 f']"),
            PhhErrorKind::Syntax,
            6,
            Some(19),
            "`,` or `]`",
        ),
        (
            ok.replace("['p1 f']", "['p1 f',,]"),
            PhhErrorKind::Syntax,
            6,
            Some(19),
            "expected a value",
        ),
        (
            format!("{ok}min_bet = 3\n"),
            PhhErrorKind::Duplicate,
            7,
            Some(1),
            "given twice",
        ),
        (
            format!("{ok}day = 'Monday'\n"),
            PhhErrorKind::WrongType,
            7,
            Some(7),
            "`day` must be an integer",
        ),
        (
            format!("{ok}seats = [1, 2, 3]\n"),
            PhhErrorKind::WrongLength,
            7,
            Some(9),
            "array `seats` has 3 entries",
        ),
        (
            format!("{ok}note = '''x'''\n"),
            PhhErrorKind::Unsupported,
            7,
            Some(8),
            "multi-line strings",
        ),
        (
            format!("{ok}note = {{a = 1}}\n"),
            PhhErrorKind::Unsupported,
            7,
            Some(8),
            "inline tables",
        ),
        (
            format!("{ok}a.b = 1\n"),
            PhhErrorKind::Unsupported,
            7,
            Some(2),
            "dotted keys",
        ),
        (
            format!("{ok}time_limit = nan\n"),
            PhhErrorKind::Unsupported,
            7,
            Some(14),
            "nan",
        ),
        (
            format!("{ok}time = 25:00:00\n"),
            PhhErrorKind::Syntax,
            7,
            Some(8),
            "date or time",
        ),
        (
            format!("{ok}note = \"a\\qb\"\n"),
            PhhErrorKind::Syntax,
            7,
            Some(10),
            "unknown escape",
        ),
        (
            format!("{ok}[1]\n{ok}"),
            PhhErrorKind::Syntax,
            7,
            None,
            "parse_phhs",
        ),
    ];
    for (text, kind, line, col, needle) in cases {
        let e = parse_phh(&text).expect_err(&text);
        let shown = e.to_string();
        assert_eq!(
            (e.kind, e.line, e.col),
            (kind, line, col),
            "{shown}\n---\n{text}"
        );
        assert!(shown.contains(needle), "`{shown}` lacks `{needle}`");
        let prefix = match col {
            Some(c) => format!("line {line}, col {c}: "),
            None => format!("line {line}: "),
        };
        assert!(shown.starts_with(&prefix), "{shown}");
    }
    // .phhs specifics.
    let ok = minimal("[1, 2]", "[100, 200]", "['p1 f']");
    let e = parse_phhs(&format!("[1]\n{ok}\n[1]\n{ok}")).unwrap_err();
    assert_eq!((e.kind, e.line), (PhhErrorKind::Duplicate, 9));
    let e = parse_phhs(&format!("{ok}[1]\n{ok}")).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("line 1, col 1: `variant` is outside any hand"),
        "{e}"
    );
    let e = parse_phhs(&format!("[x]\n{ok}")).unwrap_err();
    assert!(e.to_string().contains("numbered `[1]`"), "{e}");
    let e = parse_phhs(&format!("[1]\n{ok}\n[2]\nvariant = 'NT'\n")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 9: missing required field `starting_stacks` in hand [2]"
    );
    let e = parse_phhs(&format!("[[1]]\n{ok}")).unwrap_err();
    assert_eq!(e.kind, PhhErrorKind::Unsupported);
}

/// Whatever the input, reading returns (never panics), and anything read writes back to an
/// equal record.
fn check_no_panic(text: &str) {
    if let Ok(hands) = parse_file(text) {
        let again = parse_phhs(&write_phhs(&hands)).unwrap_or_else(|e| panic!("{e}\n---\n{text}"));
        assert_eq!(again.len(), hands.len());
        for (a, b) in again.iter().zip(&hands) {
            assert!(
                a.same_record(&PhhHand {
                    number: a.number,
                    ..b.clone()
                }),
                "---\n{text}"
            );
        }
    }
    let _ = parse_phh(text);
}

fn sample() -> String {
    let wsop = read("phh", "wsop-2019-42-3-00-01-07.phh");
    format!(
        "[1]\n{wsop}\n[2]\n{}",
        minimal(
            "[0.5, -1]",
            "[inf, 200]",
            "[\n 'd dh p1 AhKd', # x\n 'p1 cbr 3.25', 'p2 sm',\n]"
        )
    )
}

#[test]
fn truncated_files_never_panic() {
    let text = sample();
    for (i, _) in text.char_indices() {
        check_no_panic(&text[..i]);
    }
}

#[test]
fn mutated_files_never_panic() {
    let text = sample();
    let alphabet: Vec<char> = "[]'\"#=,.-+_ \n\r\t0123456789eEinfpdhbcrsm?AKQJTcdhs’{}\\:"
        .chars()
        .collect();
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    for _ in 0..3000 {
        let mut chars: Vec<char> = text.chars().collect();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(chars.len());
            match rng.below(3) {
                0 => chars[at] = alphabet[rng.below(alphabet.len())],
                1 => chars.insert(at, alphabet[rng.below(alphabet.len())]),
                _ => {
                    chars.remove(at);
                }
            }
        }
        check_no_panic(&chars.into_iter().collect::<String>());
    }
}

#[test]
fn garbage_never_panics() {
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    for _ in 0..3000 {
        let text = garbage(&mut rng, 12);
        check_no_panic(&text);
    }
    check_no_panic(&"[".repeat(100_000));
    check_no_panic(&format!("a = {}", "[".repeat(100_000)));
    check_no_panic("\u{feff}");
}

/// Compares the `key =` and `[n]` lines of two PHH texts: same fields in the same order.
fn assert_same_keys(written: &str, original: &str, name: &str) {
    let keys = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.split(" =").next().unwrap_or_default().trim().to_string())
            .collect()
    };
    assert_eq!(keys(written), keys(original), "{name}");
}

/// Three hands of a .phhs file, one field per line, as the writer lays them out.
fn three_hands() -> String {
    let one = minimal(
        "[0.5, 1]",
        "[inf, 200]",
        "['d dh p1 AhKd', 'd dh p2 ????', 'p2 cbr 3.5 # c', 'p1 sm -']",
    );
    let two = minimal("[1, -2]", "[100, 200]", "['p1 f']");
    format!("[1]\n{one}\n[2]\n{two}time = 16:46:03\nplayers = ['a', \"b\\u00e9\"]\n\n[3]\n{one}")
}

/// Defects a line can carry, each with the kind of error it must give on its own line.
const DEFECTS: [(&str, PhhErrorKind); 12] = [
    ("note = \"a\\qb\"", PhhErrorKind::Syntax),
    ("note = \"\\u12\"", PhhErrorKind::Syntax),
    ("note = 'unterminated", PhhErrorKind::Syntax),
    ("note = 1__0", PhhErrorKind::Syntax),
    ("note = 1e999", PhhErrorKind::Syntax),
    ("note = 0x1F", PhhErrorKind::Unsupported),
    ("note = nan", PhhErrorKind::Unsupported),
    ("note = 12:61", PhhErrorKind::Syntax),
    ("note = [1 2]", PhhErrorKind::Syntax),
    ("note = 99999999999999999999", PhhErrorKind::Syntax),
    ("note = {a = 1}", PhhErrorKind::Unsupported),
    ("note 'x'", PhhErrorKind::Syntax),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    /// A malformed line anywhere (a bad escape, a bad number, an unterminated string or
    /// array, a field given twice) is refused with an error on that line, by every reader.
    #[test]
    fn a_malformed_line_is_refused_on_its_line(defect in 0..DEFECTS.len() + 1, at in any::<prop::sample::Index>()) {
        let text = three_hands();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let at = at.index(lines.len());
        let (line, kind) = if defect == DEFECTS.len() {
            // A field given twice: its line repeated (headers and blank lines are not fields).
            let Some(i) = (at..lines.len()).find(|&i| lines[i].contains(" = ")) else {
                return Ok(());
            };
            lines.insert(i + 1, lines[i].clone());
            (i + 2, PhhErrorKind::Duplicate)
        } else {
            lines.insert(at, DEFECTS[defect].0.to_string());
            (at + 1, DEFECTS[defect].1)
        };
        let text = lines.join("\n");
        for result in [parse_file(&text).map(|_| ()), parse_phhs(&text).map(|_| ()), parse_phh(&text).map(|_| ())] {
            let e = result.expect_err(&text);
            prop_assert_eq!((e.kind, e.line), (kind, line), "{}\n---\n{}", e, text);
        }
    }

    /// A text cut anywhere is read or refused with an error on one of its lines; never a panic.
    #[test]
    fn a_truncated_text_is_refused_on_one_of_its_lines(cut in any::<prop::sample::Index>()) {
        let text = three_hands();
        let cuts: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        let part = &text[..cuts[cut.index(cuts.len())]];
        let lines = part.split('\n').count();
        for result in [parse_file(part).map(|_| ()), parse_phhs(part).map(|_| ())] {
            if let Err(e) = result {
                prop_assert!(e.line >= 1 && e.line <= lines, "{} not in 1..={}\n{}", e, lines, part);
                prop_assert!(e.col.is_none_or(|c| c >= 1), "{}", e);
            }
        }
    }
}

/// The messages users see for each kind of problem, reviewed once and kept.
#[test]
fn error_messages_are_stable() {
    let ok = minimal("[1, 2]", "[100, 200]", "['p1 f']");
    let cases = [
        ok.replace("['p1 f']", "['p1 cbr']"),
        ok.replace("['p1 f']", "['p1 f', 'p3 cc']"),
        ok.replace("['p1 f']", "['d dh p1 AhKx']"),
        ok.replace("['p1 f']", "['p1 sm -']"),
        ok.replace("['p1 f']", "['p1 f', 3]"),
        ok.replace("min_bet = 2\n", ""),
        ok.replace("antes = [0, 0]", "antes = [0, 0, 0]"),
        ok.replace("[100, 200]", "[100, 'x']"),
        ok.replace("[100, 200]", "[100, -200]"),
        ok.replace("[100, 200]", "[100, 0.0000000000000000001]"),
        ok.replace("[100, 200]", "[100, 92233720368547758.08]"),
        ok.replace("[100, 200]", "[100, 99999999999999999999]"),
        ok.replace("variant = 'NT'", "variant = 'NT"),
        ok.replace("variant = 'NT'", "variant = NT"),
        ok.replace("variant = 'NT'", "variant 'NT'"),
        ok.replace("variant = 'NT'", "variant = 'NT' 'x'"),
        ok.replace("['p1 f']", "['p1 f',"),
        ok.replace("['p1 f']", "['p1 f' 'p2 f']"),
        format!("{ok}min_bet = 3\n"),
        format!("{ok}seats = [1, 2, 3]\n"),
        format!("{ok}note = '''x'''\n"),
        format!("{ok}a.b = 1\n"),
        format!("{ok}time_limit = nan\n"),
        format!("{ok}time = 25:00:00\n"),
        format!("{ok}note = \"a\\qb\"\n"),
        format!("{ok}note = \"\\u12\"\n"),
        format!("{ok}[1]\n{ok}"),
        format!("variant = 'NT'\n[1]\n{ok}"),
        format!("[1]\n{ok}\n[1]\n{ok}"),
        format!("[x]\n{ok}"),
        format!("[[1]]\n{ok}"),
        format!("[1]\n{ok}\n[2]\nvariant = 'NT'\n"),
    ];
    let mut shown = String::new();
    for text in &cases {
        let e = parse_file(text).expect_err(text);
        shown.push_str(&format!("{:?}: {e}\n", e.kind));
    }
    insta::assert_snapshot!(shown);
}
