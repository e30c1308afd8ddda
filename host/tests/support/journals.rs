//! The two places a daemon under test keeps its journal: SQLite in its data directory (the
//! default) and a database of its own on the PostgreSQL server `tests/with-postgres` starts
//! (its URL in `FLOOR_TEST_POSTGRES`). Tests of the journal and of recovery run on both. With
//! no server they fail and say why: nothing is skipped.

use std::path::Path;

/// Where a daemon keeps its journal.
#[derive(Clone, Debug)]
pub enum Backend {
    /// SQLite, in the data directory.
    Sqlite,
    /// PostgreSQL, at this URL.
    Postgres(String),
}

/// The lease of the tests' daemons on PostgreSQL: short, so that a takeover after kill -9
/// comes quickly, long enough for a loaded machine to renew it.
pub const LEASE_MS: u64 = 3000;

/// The test server's URL, or a panic saying why there is none.
pub fn server() -> String {
    match std::env::var("FLOOR_TEST_POSTGRES") {
        Ok(url) => url,
        Err(_) => panic!(
            "no PostgreSQL for the tests of the PostgreSQL journal: {}",
            std::env::var("FLOOR_TEST_POSTGRES_ERROR").unwrap_or_else(|_| {
                "FLOOR_TEST_POSTGRES is not set: run the tests with tests/run (or tests/with-postgres cargo test ...), which starts a throwaway server".into()
            })
        ),
    }
}

/// The URL of a new, empty database for test `name` on the test server.
pub fn postgres_database(name: &str) -> String {
    let base = server();
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    let db = format!("floor_it_{}_{clean}", std::process::id());
    let mut c = postgres::Client::connect(&base, postgres::NoTls)
        .unwrap_or_else(|e| panic!("the test server at {base} does not answer: {e}"));
    c.batch_execute(&format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)"))
        .and_then(|()| c.batch_execute(&format!("CREATE DATABASE {db}")))
        .unwrap_or_else(|e| panic!("no database for the test: {e}"));
    match base.rsplit_once('/') {
        Some((server, _)) => format!("{server}/{db}"),
        None => panic!("{base} names no database"),
    }
}

impl Backend {
    /// SQLite and a fresh PostgreSQL database, for a test named `name` to run on each.
    pub fn both(name: &str) -> [Backend; 2] {
        [Backend::Sqlite, Backend::Postgres(postgres_database(name))]
    }

    /// The daemon's config fields for this journal (RON).
    pub fn config(&self) -> String {
        match self {
            Backend::Sqlite => String::new(),
            Backend::Postgres(url) => format!(r#"journal: "{url}", lease_ms: {LEASE_MS},"#),
        }
    }

    /// `floor audit`'s arguments naming this journal, besides `--data`.
    pub fn args(&self) -> Vec<String> {
        match self {
            Backend::Sqlite => vec![],
            Backend::Postgres(url) => vec!["--journal".into(), url.clone()],
        }
    }

    /// A short name for messages.
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres(_) => "postgres",
        }
    }

    /// Runs `sql` on the journal's database, as someone with access to it would.
    pub fn tamper(&self, data: &Path, sql: &str) {
        match self {
            Backend::Sqlite => {
                let c = rusqlite::Connection::open(data.join("journal.sqlite")).expect("open");
                c.execute_batch(sql).expect("tamper");
            }
            Backend::Postgres(url) => {
                let mut c = postgres::Client::connect(url, postgres::NoTls).expect("connect");
                c.batch_execute(sql).expect("tamper");
            }
        }
    }
}
