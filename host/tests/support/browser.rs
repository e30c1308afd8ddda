//! The daemon's pages in a real headless browser (Debian's `chromium`, which `tests/run`
//! installs): a page rendered after its scripts ran, and the text of its rows and elements,
//! for the tests of the web page and of the dealer's console.

use super::Daemon;
use std::path::Path;
use std::process::Command;

/// Debian's chromium, or the reason the test cannot run.
pub fn chromium() -> &'static str {
    for candidate in ["/usr/bin/chromium", "/usr/bin/chromium-browser"] {
        if Path::new(candidate).exists() {
            return candidate;
        }
    }
    panic!("chromium is not installed: run the README's test command (`tests/run`), which installs Debian's chromium");
}

/// The page's DOM after its scripts ran, as chromium serialises it.
pub fn rendered(url: &str, profile: &Path) -> String {
    let output = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=10000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(url)
        .output()
        .expect("chromium runs");
    assert!(output.status.success(), "chromium failed: {output:?}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// `html` as the text a reader sees: tags dropped (each a word break), spaces collapsed.
fn strip_tags(html: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                text.push(' ');
            }
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text of the `<tr>` whose attribute `attr` is `value` (tags stripped), if any.
pub fn row(dom: &str, attr: &str, value: &str) -> Option<String> {
    let start = dom.find(&format!("{attr}=\"{value}\""))?;
    let end = start + dom[start..].find("</tr>")?;
    Some(strip_tags(&dom[start..end]))
}

/// The text of the element with id `id` (tags stripped), if any.
pub fn text_of(dom: &str, id: &str) -> Option<String> {
    let start = dom.find(&format!("id=\"{id}\""))?;
    let open_end = start + dom[start..].find('>')? + 1;
    let tag: String = dom[..start]
        .rsplit('<')
        .next()?
        .split_whitespace()
        .next()?
        .to_string();
    let end = open_end + dom[open_end..].find(&format!("</{tag}>"))?;
    Some(strip_tags(&dom[open_end..end]))
}

/// The console's page for `table` with its inputs set (`ID:VALUE,...`) and the button
/// `press` pressed once the table is drawn, rendered after its scripts ran.
pub fn console_pressing(d: &Daemon, profile: &Path, table: &str, set: &str, press: &str) -> String {
    rendered(
        &format!(
            "http://{}/console?table={table}&set={set}&press={press}#token={}",
            d.addr, d.operator
        ),
        profile,
    )
}
