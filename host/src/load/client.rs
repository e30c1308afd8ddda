//! A small HTTP/1.1 client for the load generator: one keep-alive connection per client task
//! (hyper's connection-level client, no pool), reconnecting after a failure. Every request
//! is timed by the caller; this module only moves bytes.

use axum::body::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper::{Method, Request};
use hyper_util::rt::TokioIo;

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
        /// hyper's message.
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
    sender: Option<SendRequest<Full<Bytes>>>,
}

impl Conn {
    /// A connection to `addr` (`127.0.0.1:PORT`), opened at the first request.
    pub fn new(addr: &str) -> Conn {
        Conn {
            addr: addr.to_string(),
            sender: None,
        }
    }

    fn http(&self, e: impl std::fmt::Display) -> ClientError {
        ClientError::Http {
            addr: self.addr.clone(),
            message: e.to_string(),
        }
    }

    async fn connect(&self) -> Result<SendRequest<Full<Bytes>>, ClientError> {
        let stream = tokio::net::TcpStream::connect(&self.addr)
            .await
            .map_err(|source| ClientError::Connect {
                addr: self.addr.clone(),
                source,
            })?;
        // Small requests and answers: send at once instead of waiting for more bytes.
        let _ = stream.set_nodelay(true);
        let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| self.http(e))?;
        tokio::spawn(async move {
            let _ = connection.await;
        });
        Ok(sender)
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
        let result = self.exchange(method, path, token, body).await;
        if result.is_err() {
            self.sender = None;
        }
        result
    }

    async fn exchange(
        &mut self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<String>,
    ) -> Result<Answer, ClientError> {
        let mut sender = match self.sender.take() {
            Some(s) if !s.is_closed() => s,
            _ => self.connect().await?,
        };
        sender.ready().await.map_err(|e| self.http(e))?;
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header(hyper::header::HOST, &self.addr)
            .header(hyper::header::CONTENT_TYPE, "application/json");
        if let Some(t) = token {
            request = request.header(hyper::header::AUTHORIZATION, format!("Bearer {t}"));
        }
        let request = request
            .body(Full::new(Bytes::from(body.unwrap_or_default())))
            .map_err(|e| self.http(e))?;
        let response = sender
            .send_request(request)
            .await
            .map_err(|e| self.http(e))?;
        let status = response.status().as_u16();
        let body = response
            .into_body()
            .collect()
            .await
            .map_err(|e| self.http(e))?
            .to_bytes();
        self.sender = Some(sender);
        Ok(Answer { status, body })
    }
}
