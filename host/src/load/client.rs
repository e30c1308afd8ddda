//! A small HTTP/1.1 client for the load generator: one keep-alive connection per client task,
//! reconnecting after a failure. Every request is timed by the caller; this module only moves
//! bytes.
//!
//! It writes the request and reads the answer on the socket itself, in the caller's task,
//! rather than through hyper's client (a connection task, a dispatch channel and header maps
//! per request): the generator shares the machine with the daemon it measures, so every
//! microsecond it spends per request is one the daemon does not get. It reads what `floor
//! serve` sends — a status line, headers, and a body framed by `Content-Length`, by chunked
//! transfer encoding, or by the end of the connection.

use axum::body::Bytes;
use hyper::Method;
use std::fmt::Write as _;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A request that got no HTTP answer.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The daemon could not be reached.
    #[error("cannot connect to {addr}: {source}")]
    Connect {
        /// The address.
        addr: String,
        /// Why.
        source: std::io::Error,
    },
    /// The connection failed during the exchange.
    #[error("HTTP exchange with {addr} failed: {message}")]
    Http {
        /// The address.
        addr: String,
        /// What went wrong.
        message: String,
    },
}

/// An answer: status and body.
#[derive(Debug)]
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// The body (JSON from the daemon).
    pub body: Bytes,
}

impl Answer {
    /// The body as JSON (`Null` if it is not JSON).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or(serde_json::Value::Null)
    }
}

/// One keep-alive connection to the daemon.
pub struct Conn {
    addr: String,
    stream: Option<TcpStream>,
    /// The request being written (kept to reuse its allocation).
    out: String,
    /// Bytes read and not yet consumed.
    input: Vec<u8>,
}

/// How the body of an answer ends.
enum Framing {
    Length(usize),
    Chunked,
    Close,
}

impl Conn {
    /// A connection to `addr` (`127.0.0.1:PORT`), opened at the first request.
    pub fn new(addr: &str) -> Conn {
        Conn {
            addr: addr.to_string(),
            stream: None,
            out: String::with_capacity(512),
            input: Vec::with_capacity(8192),
        }
    }

    fn http(&self, e: impl std::fmt::Display) -> ClientError {
        ClientError::Http {
            addr: self.addr.clone(),
            message: e.to_string(),
        }
    }

    /// Sends one request and reads the whole answer. After a failure the connection is
    /// dropped and the next request opens a new one.
    pub async fn request(
        &mut self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<String>,
    ) -> Result<Answer, ClientError> {
        let result = self.exchange(&method, path, token, body.as_deref()).await;
        if result.is_err() {
            self.stream = None;
        }
        result
    }

    async fn exchange(
        &mut self,
        method: &Method,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> Result<Answer, ClientError> {
        if self.stream.is_none() {
            let stream =
                TcpStream::connect(&self.addr)
                    .await
                    .map_err(|source| ClientError::Connect {
                        addr: self.addr.clone(),
                        source,
                    })?;
            // Small requests and answers: send at once instead of waiting for more bytes.
            let _ = stream.set_nodelay(true);
            self.stream = Some(stream);
            self.input.clear();
        }
        let body = body.unwrap_or("");
        self.out.clear();
        let _ = write!(
            self.out,
            "{method} {path} HTTP/1.1\r\nhost: {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n",
            self.addr,
            body.len()
        );
        if let Some(t) = token {
            let _ = write!(self.out, "authorization: Bearer {t}\r\n");
        }
        self.out.push_str("\r\n");
        self.out.push_str(body);
        let Some(stream) = self.stream.as_mut() else {
            return Err(self.http("no connection"));
        };
        stream
            .write_all(self.out.as_bytes())
            .await
            .map_err(|e| ClientError::Http {
                addr: self.addr.clone(),
                message: e.to_string(),
            })?;
        self.read_answer().await
    }

    /// Reads more bytes into `input`; `false` at the end of the connection.
    async fn fill(&mut self) -> Result<bool, ClientError> {
        let Some(stream) = self.stream.as_mut() else {
            return Err(self.http("no connection"));
        };
        if self.input.capacity() - self.input.len() < 4096 {
            self.input.reserve(8192);
        }
        match stream.read_buf(&mut self.input).await {
            Ok(n) => Ok(n > 0),
            Err(e) => Err(self.http(e)),
        }
    }

    async fn read_answer(&mut self) -> Result<Answer, ClientError> {
        // The head: up to the blank line.
        let head_end = loop {
            if let Some(i) = find(&self.input, b"\r\n\r\n") {
                break i + 4;
            }
            if !self.fill().await? {
                return Err(self.http("the connection closed before an answer"));
            }
        };
        let (status, framing, close) = parse_head(&self.input[..head_end])
            .ok_or_else(|| self.http("malformed answer head"))?;
        self.input.drain(..head_end);
        let body = match framing {
            Framing::Length(n) => {
                while self.input.len() < n {
                    if !self.fill().await? {
                        return Err(self.http("the connection closed in the middle of a body"));
                    }
                }
                let body = Bytes::copy_from_slice(&self.input[..n]);
                self.input.drain(..n);
                body
            }
            Framing::Chunked => self.read_chunked().await?,
            Framing::Close => {
                while self.fill().await? {}
                let body = Bytes::copy_from_slice(&self.input);
                self.input.clear();
                self.stream = None;
                body
            }
        };
        if close {
            self.stream = None;
        }
        Ok(Answer { status, body })
    }

    async fn read_chunked(&mut self) -> Result<Bytes, ClientError> {
        let mut body = Vec::new();
        loop {
            let line_end = loop {
                if let Some(i) = find(&self.input, b"\r\n") {
                    break i;
                }
                if !self.fill().await? {
                    return Err(self.http("the connection closed in a chunk header"));
                }
            };
            let size = std::str::from_utf8(&self.input[..line_end])
                .ok()
                .and_then(|l| usize::from_str_radix(l.split(';').next()?.trim(), 16).ok())
                .ok_or_else(|| self.http("malformed chunk size"))?;
            self.input.drain(..line_end + 2);
            while self.input.len() < size + 2 {
                if !self.fill().await? {
                    return Err(self.http("the connection closed in a chunk"));
                }
            }
            body.extend_from_slice(&self.input[..size]);
            self.input.drain(..size + 2);
            if size == 0 {
                return Ok(Bytes::from(body));
            }
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Status, framing of the body, and whether the server closes the connection after it.
fn parse_head(head: &[u8]) -> Option<(u16, Framing, bool)> {
    let text = std::str::from_utf8(head).ok()?;
    let mut lines = text.split("\r\n");
    let status: u16 = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let mut framing = Framing::Close;
    let mut close = false;
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            framing = Framing::Length(value.parse().ok()?);
        } else if name.eq_ignore_ascii_case("transfer-encoding")
            && value.eq_ignore_ascii_case("chunked")
        {
            framing = Framing::Chunked;
        } else if name.eq_ignore_ascii_case("connection") && value.eq_ignore_ascii_case("close") {
            close = true;
        }
    }
    Some((status, framing, close))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answer_heads_are_read_for_status_and_framing() {
        let (status, framing, close) = parse_head(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\ncontent-length: 12\r\n\r\n",
        )
        .expect("head");
        assert_eq!(status, 200);
        assert!(matches!(framing, Framing::Length(12)));
        assert!(!close);
        let (status, framing, close) = parse_head(
            b"HTTP/1.1 404 Not Found\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n",
        )
        .expect("head");
        assert_eq!(status, 404);
        assert!(matches!(framing, Framing::Chunked));
        assert!(close);
        assert!(parse_head(b"nonsense\r\n\r\n").is_none());
    }
}
