//! The daemon's web page at `/`, loaded in a real headless browser (Debian's `chromium`, which
//! `tests/run` installs): after its scripts ran, the page must show what a regulator or an
//! operator looks for — every ruleset with its version and reload status (and a broken edit's
//! error with file:line:col), the live tables, and the jurisdiction comparison with the rows
//! that differ highlighted and every cell's citation on hover.

use crate::support;

use std::path::Path;
use std::process::Command;
use support::browser::{chromium, console_pressing, rendered, row, text_of};
use support::{
    eventually, seat_stacks, Daemon, Scratch, CASINO_TABLE_CALLED_SHOWDOWN, TOURNAMENT_RULES_TABLE,
};

#[test]
fn the_page_shows_rulesets_with_reload_status_live_tables_and_the_highlighted_comparison() {
    let scratch = Scratch::new("web-page");
    let rulesets = scratch.rulesets();
    let d = Daemon::start(&rulesets, &scratch.data());
    let (table, tokens) = d.table("pt-online", 2, 200);
    d.post(&format!("/api/tables/{table}/hands"), "");
    // Each player's hole cards, as he alone sees them.
    let holes: Vec<String> = tokens
        .iter()
        .enumerate()
        .flat_map(|(i, token)| {
            let view = d.get(&format!("/api/tables/{table}"), Some(token));
            let cards = view["seats"][i]["cards"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            assert_eq!(cards.len(), 2, "seat {} sees his cards: {view}", i + 1);
            cards
                .into_iter()
                .map(|c| c.as_str().expect("a card").to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    // A live tournament.
    let created = d.post(
        "/api/tournaments",
        r#"{"ruleset": "pt-tournament", "name": "Sunday 50", "buy_in": 5000, "seats_per_table": 6, "payouts": {"bands": [{"entries_min": 2, "shares_percent": [100]}]}}"#,
    );
    let tournament = created["tournament"].as_str().expect("id").to_string();
    for name in ["Ana", "Rui", "Eva"] {
        d.post(
            &format!("/api/tournaments/{tournament}/players"),
            &format!(r#"{{"name": "{name}"}}"#),
        );
    }
    d.post(&format!("/api/tournaments/{tournament}/start"), "");
    // A broken edit: the old version stays live and the page must show the error.
    let script = rulesets.join("br-adtp-2012/floor.rhai");
    let text = std::fs::read_to_string(&script).expect("script");
    std::fs::write(&script, format!("{text}\nfn broken( {{\n")).expect("edit");
    eventually("the broken edit to be reported", || {
        (d.ruleset("br-adtp-2012")["status"] == "error").then_some(())
    });

    let profile = scratch.0.join("chromium-profile");
    let dom = rendered(&format!("http://{}/", d.addr), &profile);

    assert!(dom.contains("<h1>floor</h1>"), "{dom}");
    // Rulesets: every one listed with its version; the broken one in error, with file:line:col.
    for id in [
        "pt-casino-2007",
        "pt-online",
        "pt-tournament",
        "pt-solverde-chaves-2023",
        "ao-tournament-2025",
    ] {
        let line = row(&dom, "data-ruleset", id).unwrap_or_else(|| panic!("no row for {id}"));
        assert!(line.contains(" ok "), "{id}: {line}");
    }
    let broken = row(&dom, "data-ruleset", "br-adtp-2012").expect("br-adtp-2012 row");
    assert!(broken.contains("error"), "{broken}");
    assert!(broken.contains("floor.rhai"), "{broken}");
    assert!(
        broken
            .split("floor.rhai:")
            .nth(1)
            .is_some_and(|rest| rest.chars().next().is_some_and(|c| c.is_ascii_digit())),
        "file:line:col: {broken}"
    );
    // Live tables: the table, its ruleset and its hand in progress, nobody's cards.
    let live = row(&dom, "data-table", &table).expect("the live table's row");
    assert!(live.contains("pt-online"), "{live}");
    assert!(live.contains("hand in progress"), "{live}");
    for card in &holes {
        assert!(!live.contains(card.as_str()), "{card} is shown: {live}");
    }
    assert!(!live.contains(['♠', '♥', '♦', '♣']), "{live}");
    // Live tournaments: the tournament, its ruleset, players left and the pool in euros.
    let t = row(&dom, "data-tournament", &tournament).expect("the tournament's row");
    assert!(
        t.contains("Sunday 50") && t.contains("pt-tournament"),
        "{t}"
    );
    assert!(t.contains("running") && t.contains("3 of 3"), "{t}");
    assert!(t.contains("€150.00"), "{t}");
    // The comparison: every rule point, the differing ones highlighted, citations on hover,
    // unregulated cells marked.
    let points = dom.matches("data-point=").count();
    assert_eq!(points, 195, "every rule point has a row");
    let differing = dom.matches("class=\"differs\"").count();
    assert!(differing >= 68, "only {differing} rows highlighted");
    assert!(
        dom.contains("title=\"pt-casino-2007: rule "),
        "citations on hover"
    );
    assert!(dom.contains("not regulated by this text"));
    // The catalogue's DIFFERS points, highlighted.
    for point in [
        "betting.min_raise",
        "showdown.odd_chip",
        "cash.rake.mode_and_bounds",
    ] {
        assert!(
            dom.contains(&format!("<tr class=\"differs\" data-point=\"{point}\">")),
            "{point} not highlighted"
        );
    }
}

#[test]
fn the_dealers_console_draws_a_live_table_reports_a_premature_flop_and_shows_the_cap() {
    let scratch = Scratch::new("web-console");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    // pt-casino-2007 rule 6: a hold'em table has ten seats; four players are seated.
    let table = d.dealt_table();
    let first = d.view(&table)["hand"]["to_act"].as_u64().expect("to act");
    d.post(
        &format!("/api/tables/{table}/actions"),
        &format!(r#"{{"seat": {first}, "action": "cc"}}"#),
    );
    let profile = scratch.0.join("chromium-console");
    let base = format!("http://{}/console?table={table}", d.addr);
    let token = format!("#token={}", d.operator);

    // The dealer presses "premature flop": the daemon rules and carries it out.
    let pressed = rendered(&format!("{base}&press=premature-flop{token}"), &profile);
    let rulings = text_of(&pressed, "rulings").unwrap_or_default();
    assert!(
        rulings.contains("board.premature_flop") && rulings.contains("rule 70(d),(h)"),
        "the ruling with its article: {rulings}"
    );
    let set_aside = d.view(&table)["hand"]["dealer"]["set_aside"].clone();
    assert_eq!(set_aside.as_array().map(Vec::len), Some(3), "{set_aside}");

    // Drawn again: the seats, the set-aside flop, the capped players and the menu.
    let dom = rendered(&format!("{base}{token}"), &profile);
    for seat in 1..=4 {
        let line = row(&dom, "data-seat", &seat.to_string()).unwrap_or_default();
        assert!(
            line.contains(&format!("player{seat}")),
            "seat {seat}: {line}"
        );
    }
    let shown = text_of(&dom, "set-aside").unwrap_or_default();
    for card in set_aside.as_array().into_iter().flatten() {
        assert!(shown.contains(card.as_str().unwrap_or("?")), "{shown}");
    }
    let capped = (1..=4)
        .filter(|s| row(&dom, "data-seat", &s.to_string()).is_some_and(|l| l.contains("call only")))
        .count();
    assert_eq!(capped, 3, "rule 70(h): the three who had not acted: {dom}");
    let menu = text_of(&dom, "menu").unwrap_or_default();
    assert!(
        menu.contains("fold, call") && !menu.contains("raise"),
        "{menu}"
    );
    for button in ["exposed-card", "premature-flop", "misdeal", "away", "clock"] {
        assert!(
            dom.contains(&format!("id=\"{button}\"")),
            "the {button} button"
        );
    }
}

/// The console's "action played at the table" button: a raise the dealer saw made out of
/// turn is posted as a `Played` event, ruled on (pt-casino-2007 rule 71(f): it binds) and held
/// for the player's turn, his chips still behind him.
#[test]
fn the_dealers_console_reports_an_action_played_out_of_turn() {
    let scratch = Scratch::new("web-console-played");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let table = d.dealt_table();
    let first = d.view(&table)["hand"]["to_act"].as_u64().expect("to act");
    let late = first % 4 + 1;
    let profile = scratch.0.join("chromium-console-played");
    let page = format!(
        "http://{}/console?table={table}&set=played-seat:{late},played-action:BetOrRaiseTo,played-amount:6&press=played#token={}",
        d.addr, d.operator
    );
    let dom = rendered(&page, &profile);
    let rulings = text_of(&dom, "rulings").unwrap_or_default();
    assert!(
        rulings.contains("action.out_of_turn") && rulings.contains("rule 71(f)"),
        "the ruling with its article: {rulings}"
    );
    let view = d.view(&table);
    assert_eq!(
        view["hand"]["held"],
        serde_json::json!([{"seat": late, "action": "raise 6"}]),
        "{view}"
    );
    assert_eq!(view["hand"]["to_act"], first, "{view}");
    assert!(dom.contains("id=\"played\""), "the played button");
}

/// A seat's bet in a table's view.
fn bet_of(view: &serde_json::Value, seat: u64) -> u64 {
    view["seats"][(seat - 1) as usize]["bet"]
        .as_u64()
        .expect("a bet")
}

/// The console's "how the action was made" button (the event `Acted`): the player to act
/// puts in a call of 2 and then 4 more, saying nothing; pt-casino-2007 rule 55 wants a bet
/// clear and immediate, so only the first motion counts — a call — and the turn moves on.
#[test]
fn rule_55_the_console_reports_a_string_bet_and_the_table_counts_the_first_motion() {
    let scratch = Scratch::new("web-console-acted");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let table = d.dealt_table();
    let first = d.view(&table)["hand"]["to_act"].as_u64().expect("to act");
    let dom = console_pressing(
        &d,
        &scratch.0.join("chromium-console-acted"),
        &table,
        &format!("acted-seat:{first},acted-point:action.string_bets,acted-motions:2%204"),
        "acted",
    );
    let rulings = text_of(&dom, "rulings").unwrap_or_default();
    assert!(
        rulings.contains("action.string_bets") && rulings.contains("rule 55"),
        "the ruling with its article: {rulings}"
    );
    let view = d.view(&table);
    assert_eq!(bet_of(&view, first), 2, "the first motion, a call: {view}");
    assert_eq!(view["hand"]["to_act"], first % 4 + 1, "{view}");
    // Drawn after the ruling: his call of 2 in front of him, 198 behind.
    let line = row(&dom, "data-seat", &first.to_string()).unwrap_or_default();
    assert!(
        line.contains(&format!("{first} player{first} 198 2 ")),
        "seat {first}: {line}"
    );
}

/// A called-showdown button: two players check the hand down; the dealer reports that the
/// first of them threw his hand away before the showdown was called. pt-casino-2007 rule
/// 71(b): he loses the pot, so the one live hand left wins it without being shown.
#[test]
fn rule_71_b_the_console_reports_a_premature_muck_and_the_other_hand_wins_the_pot() {
    let scratch = Scratch::new("web-console-showdown");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let table = d.four_dealt(CASINO_TABLE_CALLED_SHOWDOWN);
    for _ in 0..2 {
        let seat = d.view(&table)["hand"]["to_act"].as_u64().expect("to act");
        d.post(
            &format!("/api/tables/{table}/actions"),
            &format!(r#"{{"seat": {seat}, "action": "f"}}"#),
        );
    }
    let waiting = d.check_down(&table);
    assert_eq!(waiting["hand"]["phase"], "Showdown", "{waiting}");
    assert_eq!(waiting["hand"]["pot"], 4, "{waiting}");
    let live: Vec<u64> = waiting["seats"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|s| s["in_hand"] == true && s["folded"] == false)
        .filter_map(|s| s["seat"].as_u64())
        .collect();
    let [mucker, winner] = live[..] else {
        panic!("two hands at the showdown: {waiting}");
    };
    let dom = console_pressing(
        &d,
        &scratch.0.join("chromium-console-showdown"),
        &table,
        &format!("showdown-seat:{mucker}"),
        "muck",
    );
    let rulings = text_of(&dom, "rulings").unwrap_or_default();
    assert!(
        rulings.contains("showdown.premature_muck_by_bettor") && rulings.contains("rule 71(b)"),
        "the ruling with its article: {rulings}"
    );
    let view = d.view(&table);
    assert_eq!(view["hand"]["phase"], "Complete", "{view}");
    let stacks = seat_stacks(&view);
    assert_eq!(stacks[(mucker - 1) as usize], 198, "{view}");
    assert_eq!(stacks[(winner - 1) as usize], 202, "{view}");
    assert_eq!(stacks.iter().sum::<u64>(), 800, "{view}");
    let line = row(&dom, "data-seat", &winner.to_string()).unwrap_or_default();
    assert!(
        line.contains(&format!("{winner} player{winner} 202 ")),
        "drawn after the ruling: {line}"
    );
}

/// The console's penalty button: the floor gives seat 3 one orbit out for exposing his cards
/// with the action pending, the sanction pt-tournament leaves to him (Art. 68º: the hand
/// stays live; Art. 71º(1): the penalty starts at the next deal). The table keeps it and the
/// console draws it at the seat.
#[test]
fn art_68_the_console_gives_a_penalty_of_one_orbit_and_draws_it_at_the_seat() {
    let scratch = Scratch::new("web-console-penalty");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let table = d.four_dealt(TOURNAMENT_RULES_TABLE);
    let dom = console_pressing(
        &d,
        &scratch.0.join("chromium-console-penalty"),
        &table,
        "penalty-seat:3,penalty-offence:exposing_cards,penalty-sanction:orbits%201",
        "penalty",
    );
    let rulings = text_of(&dom, "rulings").unwrap_or_default();
    assert!(
        rulings.contains("conduct.exposing_cards") && rulings.contains("Art. 68º"),
        "the ruling with its article: {rulings}"
    );
    let view = d.view(&table);
    assert_eq!(
        view["seats"][2]["penalty"],
        serde_json::json!({"offence": "exposing_cards", "sanction": "orbits 1", "hands_left": null, "leaving": false}),
        "{view}"
    );
    assert_eq!(
        view["seats"][2]["folded"], false,
        "the hand stays live: {view}"
    );
    let line = row(&dom, "data-seat", "3").unwrap_or_default();
    assert!(
        line.contains("penalty orbits 1: starts at the next deal"),
        "seat 3: {line}"
    );
}

/// A presence button: after the deal the dealer finds the big blind was never put in and the
/// player will not post now. pt-casino-2007 rule 91: the deal stands, the post the table
/// counted goes back to his stack and his hand is dead.
#[test]
fn rule_91_the_console_reports_a_missing_post_and_the_table_takes_it_back() {
    let scratch = Scratch::new("web-console-presence");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let table = d.dealt_table();
    let dealt = d.view(&table);
    let big = (1..=4)
        .find(|&s| bet_of(&dealt, s) == 2)
        .expect("the big blind's seat");
    let dom = console_pressing(
        &d,
        &scratch.0.join("chromium-console-presence"),
        &table,
        &format!("presence-seat:{big},posts-now:false"),
        "missing-post",
    );
    let rulings = text_of(&dom, "rulings").unwrap_or_default();
    assert!(
        rulings.contains("blinds.missing_posts_at_deal") && rulings.contains("rule 91"),
        "the ruling with its article: {rulings}"
    );
    let view = d.view(&table);
    assert_eq!(bet_of(&view, big), 0, "{view}");
    let stacks = seat_stacks(&view);
    assert_eq!(stacks[(big - 1) as usize], 200, "{view}");
    assert_eq!(
        stacks.iter().sum::<u64>(),
        800 - 1,
        "only the small blind is in: {view}"
    );
    let line = row(&dom, "data-seat", &big.to_string()).unwrap_or_default();
    assert!(
        line.contains(&format!("{big} player{big} 200 0 ")) && line.ends_with("folded"),
        "seat {big}: {line}"
    );
}

/// Writes `floor compare --format html` (with `args`) to `dir`, returning the file's path.
fn comparison_page(dir: &Path, args: &[&str]) -> std::path::PathBuf {
    let out = Command::new(env!("CARGO_BIN_EXE_floor"))
        .args(["compare", "--format", "html", "--date", "2026-03-01"])
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .output()
        .expect("floor runs");
    assert!(out.status.success(), "{out:?}");
    std::fs::create_dir_all(dir).expect("dir");
    let page = dir.join("compare.html");
    std::fs::write(&page, &out.stdout).expect("write");
    page
}

/// The comparison page a regulator sends and prints: every rule point has an anchor, the
/// filters by kind, area and words work (here set from the address), it fits 1280 px, a CSV
/// download is offered, and it prints on A4.
#[test]
fn the_comparison_page_filters_fits_1280_px_and_prints_on_a4() {
    let scratch = Scratch::new("compare-page");
    let page = comparison_page(&scratch.0, &[]);
    let url = format!("file://{}", page.display());
    let dom = rendered_at(&url, &scratch.0.join("profile-1"), 1280);
    // An anchor per rule point, and the first column saying the kind of difference.
    assert_eq!(dom.matches("<a class=\"anchor\" href=\"#").count(), 195);
    let odd_chip = row(&dom, "id", "showdown.odd_chip").expect("odd chip row");
    // pt-online's text assigns no odd cent (silent); the others measure the same on the
    // probes: only the words differ.
    assert!(
        odd_chip.contains("data-kinds=\"silent wording\""),
        "{odd_chip}"
    );
    assert!(dom.contains("id=\"csv\" download=\"floor-compare.csv\""));
    assert!(
        dom.contains("<span id=\"shown\">195</span>"),
        "the script ran"
    );
    let width: u32 = dom
        .split("data-width=\"")
        .nth(1)
        .and_then(|w| w.split('"').next())
        .and_then(|w| w.parse().ok())
        .expect("the laid-out width");
    assert!(width <= 1280, "the page is {width} px wide");

    // Filters from the address: only OUTCOME differences in one area, then a search.
    let filtered = rendered_at(
        &format!("{url}?kinds=outcome&area=Pots,%20side%20pots,%20showdown"),
        &scratch.0.join("profile-2"),
        1280,
    );
    let shown: usize = filtered
        .split("<span id=\"shown\">")
        .nth(1)
        .and_then(|s| s.split('<').next())
        .and_then(|n| n.parse().ok())
        .expect("a count");
    assert!(shown > 0 && shown < 30, "{shown} rows shown");
    for tr in filtered.split("<tr ").skip(2) {
        if !tr.contains(" hidden") {
            assert!(
                tr.contains("data-area=\"Pots, side pots, showdown\""),
                "{tr}"
            );
            assert!(tr.contains("outcome"), "{tr}");
        }
    }
    let searched = rendered_at(
        &format!("{url}?q=encavado"),
        &scratch.0.join("profile-3"),
        1280,
    );
    // pt-casino-2007's word for an all-in player: its side pots and its short call.
    assert!(
        searched.contains("<span id=\"shown\">2</span>"),
        "two rows speak of encavado"
    );
    let side_pots = searched
        .split("<tr id=\"allin.side_pots\"")
        .nth(1)
        .and_then(|tr| tr.split('>').next())
        .expect("the side pots row");
    assert!(!side_pots.contains("hidden"), "{side_pots}");

    // Printed: A4 pages (landscape: 842 × 595 points).
    let pdf = scratch.0.join("compare.pdf");
    let status = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
        ])
        .arg(format!(
            "--user-data-dir={}",
            scratch.0.join("profile-4").display()
        ))
        .arg("--no-pdf-header-footer")
        .arg(format!("--print-to-pdf={}", pdf.display()))
        .arg(&url)
        .output()
        .expect("chromium prints");
    assert!(status.status.success(), "{status:?}");
    let bytes = std::fs::read(&pdf).expect("the PDF");
    let text = String::from_utf8_lossy(&bytes);
    assert!(
        text.contains("/MediaBox [0 0 841.91998 594.95996]"),
        "not A4 landscape: {}",
        text.split("/MediaBox")
            .nth(1)
            .map_or("", |s| &s[..40.min(s.len())])
    );
}

/// `rendered` with a window `width` pixels wide.
fn rendered_at(url: &str, profile: &Path, width: u32) -> String {
    let output = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--allow-file-access-from-files",
            "--virtual-time-budget=5000",
            "--dump-dom",
        ])
        .arg(format!("--window-size={width},900"))
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(url)
        .output()
        .expect("chromium runs");
    assert!(output.status.success(), "chromium failed: {output:?}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Chips as the screens print them: thousands separated by commas.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The room's screens on a daemon running a real tournament and a cash table: the clock for
/// the wall (level, blinds, ante, time left, next level and break, players left, average
/// stack, prize pool, payouts — each exactly as the API reports it), the tournament's tables
/// with every player's name in his seat, and a cash table's seat map and waiting list.
#[test]
fn the_room_screens_show_the_clock_the_seats_and_the_waiting_list_from_the_api() {
    let scratch = Scratch::new("web-screens");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let created = d.post(
        "/api/tournaments",
        r#"{"ruleset": "pt-tournament", "name": "Friday Deepstack", "buy_in": 10000, "fee_percent": 10,
            "starting_stack": 5000, "seats_per_table": 4, "seed": 7,
            "structure": {"levels": [
                {"small_blind": 25, "big_blind": 50, "ante": 0, "minutes": 20},
                {"small_blind": 50, "big_blind": 100, "ante": 10, "minutes": 20},
                {"small_blind": 100, "big_blind": 200, "ante": 20, "minutes": 20}],
              "breaks": [{"after_level": 2, "minutes": 10}]},
            "payouts": {"bands": [{"entries_min": 2, "shares_percent": [50, 30, 20]}]}}"#,
    );
    let tournament = created["tournament"].as_str().expect("id").to_string();
    let names = ["Ana", "Rui", "Eva", "Leo", "Mia", "Teo", "Gil", "Lia"];
    for name in names {
        d.post(
            &format!("/api/tournaments/{tournament}/players"),
            &format!(r#"{{"name": "{name}"}}"#),
        );
    }
    d.post(&format!("/api/tournaments/{tournament}/start"), "");
    let api = d.get(&format!("/api/tournaments/{tournament}"), None);
    assert_eq!(api["status"], "running", "{api}");
    assert_eq!(api["average_stack"], 5000, "40,000 chips over 8 players");
    assert_eq!(api["next_break"]["after_level"], 2, "{api}");
    assert_eq!(api["next_level"]["big_blind"], 100, "{api}");

    let profile = scratch.0.join("chromium-profile");
    let clock = rendered(
        &format!("http://{}/clock?tournament={tournament}", d.addr),
        &profile,
    );
    let shown = |id: &str| text_of(&clock, id).unwrap_or_else(|| panic!("no #{id}: {clock}"));
    assert_eq!(shown("name"), "Friday Deepstack");
    assert_eq!(shown("level"), "Level 1");
    assert_eq!(shown("blinds"), "25 / 50");
    assert_eq!(shown("ante"), "no ante");
    assert!(shown("time-left").contains(':'), "{}", shown("time-left"));
    assert_eq!(shown("next-level"), "level 2 · 50 / 100 · ante 10");
    assert!(
        shown("next-break").starts_with("Break of 10 min after level 2, in "),
        "{}",
        shown("next-break")
    );
    assert_eq!(shown("players-left"), "8");
    assert_eq!(shown("average-stack"), grouped(5000));
    let pool = api["money"]["prize_pool"].as_u64().expect("pool");
    assert_eq!(
        shown("prize-pool"),
        format!("€{}.{:02}", grouped(pool / 100), pool % 100)
    );
    let payouts = api["money"]["payouts"].as_array().expect("payouts");
    assert_eq!(payouts.len(), 3);
    for p in payouts {
        let amount = p["amount"].as_u64().expect("amount");
        assert!(
            shown("payouts").contains(&format!("€{}.{:02}", grouped(amount / 100), amount % 100)),
            "{}",
            shown("payouts")
        );
    }

    // The tournament's tables: every player's name at his table and seat.
    let seats = rendered(
        &format!("http://{}/seats?tournament={tournament}", d.addr),
        &profile,
    );
    for table in api["tables"].as_array().expect("tables") {
        let n = table["number"].as_u64().expect("number");
        assert!(
            seats.contains(&format!("data-table=\"{n}\"")),
            "table {n}: {seats}"
        );
    }
    for player in api["players"].as_array().expect("players") {
        let name = player["name"].as_str().expect("name");
        assert!(seats.contains(&format!(">{name}<")), "{name}: {seats}");
    }
    assert!(!seats.contains(['♠', '♥', '♦', '♣']), "no card is shown");

    // A cash table: its seat map with names and its waiting list.
    let (table, _) = d.table("pt-online", 4, 200);
    d.post(
        &format!("/api/tables/{table}/waiting_list"),
        r#"{"name": "Zoe"}"#,
    );
    let cash = rendered(&format!("http://{}/seats?table={table}", d.addr), &profile);
    for seat in 1..=4 {
        assert!(
            cash.contains(&format!(">player{seat}<")),
            "player{seat}: {cash}"
        );
    }
    assert!(cash.contains("data-waiting=\"Zoe\""), "{cash}");
    assert!(
        text_of(&cash, "waiting-list").is_some_and(|t| t.contains("Zoe")),
        "{cash}"
    );
}

/// The console's correction after the settlement: the hand is over (three
/// of the four fold), the dealer reports a claim about the pot, and the daemon rules on it under the
/// table's ruleset (pt-casino-2007 rule 65: no window after the payment, the concessionaire's
/// conflict, rule 8(c)) with the stacks as paid. The buttons for how an action was made and
/// for a hand at a called showdown are drawn beside it.
#[test]
fn the_dealers_console_reports_a_claim_after_the_settlement() {
    let scratch = Scratch::new("web-console-correction");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let table = d.dealt_table();
    // Three players fold in turn: the fourth wins the blinds.
    for _ in 0..3 {
        let to_act = d.view(&table)["hand"]["to_act"].as_u64().expect("to act");
        d.post(
            &format!("/api/tables/{table}/actions"),
            &format!(r#"{{"seat": {to_act}, "action": "f"}}"#),
        );
    }
    let stacks = |v: &serde_json::Value| -> Vec<serde_json::Value> {
        v["seats"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| s["stack"].clone())
            .collect()
    };
    let before = stacks(&d.view(&table));
    let profile = scratch.0.join("chromium-console-correction");
    let page = format!(
        "http://{}/console?table={table}&set=correction-from:2,correction-to:1,correction-amount:1&press=pot-claim#token={}",
        d.addr, d.operator
    );
    let dom = rendered(&page, &profile);
    let rulings = text_of(&dom, "rulings").unwrap_or_default();
    assert!(
        rulings.contains("pot.disputes_window") && rulings.contains("rule 8(c)"),
        "the ruling with its article: {rulings}"
    );
    assert_eq!(stacks(&d.view(&table)), before, "the stacks stay as paid");
    for button in [
        "acted",
        "show-hand",
        "muck",
        "retrieve",
        "ask-to-see",
        "pot-claim",
        "hidden-chip",
        "penalty",
        "absent-at-deal",
        "left-seat",
        "missing-post",
    ] {
        assert!(
            dom.contains(&format!("id=\"{button}\"")),
            "the {button} button"
        );
    }
    // Each input and button is found by its id: no id is given twice.
    let mut ids: Vec<&str> = dom
        .split(" id=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    let drawn = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), drawn, "an id given twice: {dom}");
}
