//! The HTTP routes: the app's files, and the JSON API over the games, the records and the runs
//! (docs/serve.md lists them). Every error is a JSON `{"error": "..."}` with a 4xx status (5xx
//! only for an agent's fault).

use super::assets::asset;
use super::create::{create, NewGame};
use super::error::{bad, ApiError};
use super::files::Files;
use super::store::{lock, Store};
use super::{catalog, records, runs, steps};
use axum::body::Bytes;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode, Uri};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};
use std::sync::Arc;

/// What every request shares: the files given and the games in play.
pub struct App {
    /// The paths given on the command line.
    pub files: Files,
    /// The games in play.
    pub store: Store,
}

type Shared = State<Arc<App>>;
type Answer = Result<Json<Value>, ApiError>;

/// The router of the app.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/games", get(games).post(new_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/act", post(act))
        .route("/api/games/{id}/advance", post(advance))
        .route("/api/games/{id}/hints", get(hints))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/again", post(again))
        .route("/api/records", get(record_list))
        .route("/api/records/{file}/{index}", get(record_steps))
        .route("/api/steps", post(dropped_steps))
        .route("/runs/{run}", get(run_page))
        .fallback(static_file)
        .with_state(app)
}

/// Runs `work` on a blocking thread (agents think there), as an API answer.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError::Internal(format!("the request's work failed: {e}")))?
}

/// A JSON body, or 400 naming what is wrong with it.
fn body<T>(json: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    json.map(|Json(v)| v).map_err(|e| bad(e.body_text()))
}

/// `GET /api/games`: the games, variants, seats and agents, and the files and runs given.
async fn games(State(app): Shared) -> Json<Value> {
    Json(catalog::catalog(&app.files))
}

/// `POST /api/games`: a new game; its id and its state.
async fn new_game(State(app): Shared, json: Result<Json<NewGame>, JsonRejection>) -> Answer {
    let request = body(json)?;
    let app2 = Arc::clone(&app);
    let live = blocking(move || create(&request, &app2.files)).await?;
    let state = live.state();
    let id = app.store.insert(live)?;
    Ok(Json(json!({ "id": id, "state": state })))
}

/// `GET /api/games/{id}`: the human seat's view.
async fn game_state(State(app): Shared, Path(id): Path<String>) -> Answer {
    let game = app.store.get(&id)?;
    let state = lock(&game).state();
    Ok(Json(state))
}

/// The body of `POST /api/games/{id}/act`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Act {
    /// The index of the chosen action in the legal list.
    index: usize,
}

/// `POST /api/games/{id}/act` `{"index": i}`: the human's action; the new state.
async fn act(
    State(app): Shared,
    Path(id): Path<String>,
    json: Result<Json<Act>, JsonRejection>,
) -> Answer {
    let Act { index } = body(json)?;
    let game = app.store.get(&id)?;
    blocking(move || {
        let mut live = lock(&game);
        live.act(index)?;
        Ok(Json(live.state()))
    })
    .await
}

/// `POST /api/games/{id}/advance`: the agents' next move the human sees; the new state.
async fn advance(State(app): Shared, Path(id): Path<String>) -> Answer {
    let game = app.store.get(&id)?;
    blocking(move || {
        let mut live = lock(&game);
        live.advance()?;
        Ok(Json(live.state()))
    })
    .await
}

/// `GET /api/games/{id}/hints`: an evaluation of each of the human's legal actions.
async fn hints(State(app): Shared, Path(id): Path<String>) -> Answer {
    let game = app.store.get(&id)?;
    blocking(move || lock(&game).hints().map(Json)).await
}

/// `GET /api/games/{id}/record`: the finished game's record, as a file to save.
async fn record(State(app): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    let game = app.store.get(&id)?;
    let record = lock(&game).record()?;
    let text = serde_json::to_string(&record).map_err(|e| ApiError::Internal(e.to_string()))?;
    let name = format!(
        "attachment; filename=\"{}-{}-seed{}.json\"",
        record.game,
        record.variant,
        record.seed.unwrap_or(0)
    );
    let headers = [
        (header::CONTENT_TYPE, "application/json".to_string()),
        (header::CONTENT_DISPOSITION, name),
    ];
    Ok((headers, text + "\n").into_response())
}

/// `POST /api/games/{id}/again`: the same deal, every player one seat on; its id and state.
async fn again(State(app): Shared, Path(id): Path<String>) -> Answer {
    let game = app.store.get(&id)?;
    let live = blocking(move || lock(&game).rotated()).await?;
    let state = live.state();
    let id = app.store.insert(live)?;
    Ok(Json(json!({ "id": id, "state": state })))
}

/// `GET /api/records`: the record files given, with their records.
async fn record_list(State(app): Shared) -> Answer {
    blocking(move || Ok(Json(records::list(&app.files)))).await
}

/// A number in a path, or 400.
fn number(text: &str, what: &str) -> Result<usize, ApiError> {
    text.parse()
        .map_err(|_| bad(format!("{what} '{text}' is not a number")))
}

/// `GET /api/records/{file}/{index}`: a record's steps, every seat's view.
async fn record_steps(State(app): Shared, Path((file, index)): Path<(String, String)>) -> Answer {
    let (file, index) = (number(&file, "file")?, number(&index, "record")?);
    blocking(move || {
        let record = records::get(&app.files, file, index)?;
        steps::steps(&record).map(Json)
    })
    .await
}

/// `POST /api/steps` with a record's text (a file dropped on the page): its steps.
async fn dropped_steps(text: Bytes) -> Answer {
    let text = std::str::from_utf8(&text).map_err(|e| bad(format!("not UTF-8: {e}")))?;
    let record = records::parse_dropped(text)?;
    blocking(move || steps::steps(&record).map(Json)).await
}

/// `GET /runs/{run}`: a run given, as `bailab report` draws it, with links to its games.
async fn run_page(State(app): Shared, Path(run): Path<String>) -> Result<Response, ApiError> {
    let run = number(&run, "run")?;
    let page = blocking(move || {
        let list = records::list(&app.files);
        runs::page(&app.files, run, &list)
    })
    .await?;
    Ok(Html(page).into_response())
}

/// The app's files; any other path is 404 (JSON under `/api/`).
async fn static_file(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if path.starts_with("api/") {
        return ApiError::NotFound(format!("no API route {}", uri.path())).into_response();
    }
    match asset(path) {
        Some((kind, text)) => ([(header::CONTENT_TYPE, kind)], text).into_response(),
        None => (StatusCode::NOT_FOUND, format!("no page {}", uri.path())).into_response(),
    }
}
