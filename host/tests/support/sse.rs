//! A client of the daemon's live streams (server-sent events over chunked HTTP/1.1), reading
//! on a thread of its own and keeping every event it received, in order, for the test to
//! check; waits poll with a deadline.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// One event of a stream.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// Its name (`table`, `tournament`, `closed`).
    pub name: String,
    /// Its data, as JSON.
    pub data: Value,
}

#[derive(Default)]
struct Received {
    events: Vec<Event>,
    ended: bool,
}

/// An open stream.
pub struct Stream {
    received: Arc<Mutex<Received>>,
    socket: TcpStream,
    reader: Option<JoinHandle<()>>,
    /// What was asked, for messages.
    pub path: String,
}

fn lock(r: &Mutex<Received>) -> std::sync::MutexGuard<'_, Received> {
    r.lock().unwrap_or_else(|e| e.into_inner())
}

impl Stream {
    /// Opens `GET path` (its query carrying `?token=`) on the daemon at `addr`; panics unless
    /// the answer is 200.
    pub fn open(addr: &str, path: &str) -> Stream {
        let mut socket = TcpStream::connect(addr).expect("connect");
        write!(socket, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n").expect("write");
        let mut input = BufReader::new(socket.try_clone().expect("clone"));
        let mut status = String::new();
        input.read_line(&mut status).expect("status line");
        assert!(status.contains(" 200 "), "GET {path}: {status}");
        let mut chunked = false;
        loop {
            let mut line = String::new();
            input.read_line(&mut line).expect("header");
            if line.trim().is_empty() {
                break;
            }
            if line
                .to_ascii_lowercase()
                .starts_with("transfer-encoding: chunked")
            {
                chunked = true;
            }
        }
        let received = Arc::new(Mutex::new(Received::default()));
        let sink = received.clone();
        let reader = std::thread::spawn(move || {
            read_events(input, chunked, &sink);
            lock(&sink).ended = true;
        });
        Stream {
            received,
            socket,
            reader: Some(reader),
            path: path.to_string(),
        }
    }

    /// Every event received so far.
    pub fn events(&self) -> Vec<Event> {
        lock(&self.received).events.clone()
    }

    /// Whether the daemon ended the stream.
    pub fn ended(&self) -> bool {
        lock(&self.received).ended
    }

    /// Waits until `done` holds of the events received and whether the stream ended.
    pub fn wait(&self, what: &str, done: impl Fn(&[Event], bool) -> bool) {
        super::eventually(&format!("{what} on {}", self.path), || {
            let r = lock(&self.received);
            done(&r.events, r.ended).then_some(())
        });
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        let _ = self.socket.shutdown(Shutdown::Both);
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
    }
}

/// Reads the body (chunked or not) and cuts it into events.
fn read_events(mut input: BufReader<TcpStream>, chunked: bool, sink: &Mutex<Received>) {
    let mut text = String::new();
    loop {
        let piece = if chunked {
            let mut size = String::new();
            if input.read_line(&mut size).unwrap_or(0) == 0 {
                return;
            }
            let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
                return;
            };
            if n == 0 {
                return;
            }
            let mut chunk = vec![0; n + 2];
            if input.read_exact(&mut chunk).is_err() {
                return;
            }
            chunk.truncate(n);
            chunk
        } else {
            let mut buf = vec![0; 4096];
            match input.read(&mut buf) {
                Ok(0) | Err(_) => return,
                Ok(n) => {
                    buf.truncate(n);
                    buf
                }
            }
        };
        text.push_str(&String::from_utf8_lossy(&piece));
        while let Some(end) = text.find("\n\n") {
            let block: String = text.drain(..end + 2).collect();
            if let Some(event) = parse(&block) {
                lock(sink).events.push(event);
            }
        }
    }
}

/// One event block: `event: NAME` and `data: JSON` lines (comments, the keep-alives, are
/// skipped).
fn parse(block: &str) -> Option<Event> {
    let mut name = String::from("message");
    let mut data = String::new();
    for line in block.lines() {
        if let Some(n) = line.strip_prefix("event:") {
            name = n.trim().to_string();
        } else if let Some(d) = line.strip_prefix("data:") {
            data.push_str(d.strip_prefix(' ').unwrap_or(d));
        }
    }
    if data.is_empty() {
        return None;
    }
    let data = serde_json::from_str(&data).unwrap_or(Value::String(data));
    Some(Event { name, data })
}
