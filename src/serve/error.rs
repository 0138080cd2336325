//! The errors of the web app's JSON API: each is a 4xx (or 5xx) status with `{"error": "..."}`
//! naming the problem.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// Why a request is refused.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request is malformed or names something that does not fit (a game, a seat, an agent).
    #[error("{0}")]
    BadRequest(String),
    /// No game, record or run has this id (or it expired).
    #[error("{0}")]
    NotFound(String),
    /// A file outside the paths given on the command line.
    #[error("{0}")]
    Forbidden(String),
    /// The request does not fit the game's state now (not your turn, already over, an illegal
    /// action).
    #[error("{0}")]
    Conflict(String),
    /// Too many live games: the cap is reached.
    #[error("{0}")]
    Full(String),
    /// Something failed on the server's side (an agent's fault).
    #[error("{0}")]
    Internal(String),
}

impl ApiError {
    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Full(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.to_string() });
        (self.status(), axum::Json(body)).into_response()
    }
}

/// A bad request from any error's text.
pub fn bad(e: impl std::fmt::Display) -> ApiError {
    ApiError::BadRequest(e.to_string())
}
