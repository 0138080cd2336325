//! One running agent process: it is sent a JSON line and answers one, the whole exchange (the
//! write as much as the answer) within a time limit; its standard error goes to a log and its
//! last lines are kept for error messages. Both pipes are non-blocking: the deciding thread
//! waits on them itself (poll(2) with the time left), so a round trip costs the two processes'
//! wake-ups and nothing more, and an agent that stops reading cannot block bailab.

use super::group;
use super::log::{LastLines, LogError, StderrLog};
use serde_json::Value;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest answer line, in bytes: a longer one is an error, not a memory hog.
const MAX_LINE: usize = 1 << 20;

/// How long a process that was told to stop (its input closed) may take to end before it is
/// killed, and how long its last message (`error`) may take to write.
const GRACE: Duration = Duration::from_millis(200);

/// Why an outside agent failed: it could not be started, or an exchange with it broke the
/// protocol or its time limit (the text completes "the outside agent `…` at seat 0, …").
#[derive(Debug, thiserror::Error)]
pub(crate) enum ExecError {
    /// Its log cannot be opened.
    #[error(transparent)]
    Log(#[from] LogError),
    /// The command cannot be started (the system's message).
    #[error("could not start `{command}`: {error}")]
    Start {
        /// The command line, its words joined by spaces.
        command: String,
        /// Why.
        error: std::io::Error,
    },
    /// Its pipes cannot be made non-blocking.
    #[error("its pipes could not be set up: {0}")]
    Pipes(std::io::Error),
    /// It wrote something no message asked for.
    #[error("wrote {0} when no answer was asked for (one answer per decision)")]
    Unasked(String),
    /// It did not read its input within the time limit (ms).
    #[error("did not read its input within {0} ms")]
    WriteTimeout(u128),
    /// It did not answer within the time limit (ms).
    #[error("did not answer within {0} ms")]
    AnswerTimeout(u128),
    /// Its answer line is longer than [`MAX_LINE`].
    #[error("answered a line over {MAX_LINE} bytes")]
    LineTooLong,
    /// Its output cannot be read (the system's message).
    #[error("its output could not be read: {0}")]
    Read(std::io::Error),
    /// Waiting on one of its pipes failed; `what` says what for.
    #[error("waiting {what} failed: {error}")]
    Wait {
        /// `to write to it` or `for its answer`.
        what: &'static str,
        /// The system's message.
        error: std::io::Error,
    },
    /// Its answer is not JSON (`line`: its first 200 characters).
    #[error("answered a line that is not JSON ({error}): {line}")]
    NotJson {
        /// The parser's message.
        error: serde_json::Error,
        /// The line's start.
        line: String,
    },
    /// It wrote more after its answer (the first line of it).
    #[error("answered more than once: after its answer it wrote {0}")]
    AnsweredTwice(String),
    /// It closed a pipe or ended: its exit status, if it ended, and its last stderr lines.
    #[error(
        "{}; its last stderr lines: {}",
        match status {
            Some(s) => format!("its process ended ({s})"),
            None => format!("it closed its {pipe} while its process was still running (now killed)"),
        },
        if stderr.is_empty() { "none".to_string() } else { stderr.join(" | ") }
    )]
    Ended {
        /// The pipe found closed: `input` or `output`.
        pipe: &'static str,
        /// Its exit status, if it had ended.
        status: Option<ExitStatus>,
        /// Its last stderr lines.
        stderr: Vec<String>,
    },
    /// Its handshake reply does not name the protocol this side speaks.
    #[error("the handshake's reply {reply} does not say {{\"protocol\": {protocol}}}")]
    Handshake {
        /// The reply.
        reply: Value,
        /// The protocol version this side speaks.
        protocol: u32,
    },
    /// It chose an action index past the legal actions.
    #[error("answered action {action}, but the seat has {legal} legal actions (0 to {})", legal - 1)]
    NoSuchAction {
        /// The index it answered.
        action: u64,
        /// How many legal actions the seat has.
        legal: usize,
    },
    /// Its answer has no action index.
    #[error("answered {0}, not {{\"action\": INDEX}}")]
    NoAction(Value),
}

/// A running agent process: its input, its output lines and its last stderr lines.
pub(crate) struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    /// How long one exchange may take.
    timeout: Duration,
    /// What the process wrote that is not yet an answer (no end of line yet).
    pending: Vec<u8>,
    /// The message being sent (kept to reuse its memory).
    out: Vec<u8>,
    stderr: LastLines,
    stderr_reader: std::thread::JoinHandle<()>,
    /// The process group, until it is killed.
    group: Option<i32>,
    /// Whether the process was found ended (crashed, or closed its output).
    pub gone: bool,
}

impl Process {
    /// Starts `command` (a program and its arguments) in `cwd`, in a process group of its own,
    /// its stderr to `log`; each exchange with it may take `timeout`.
    pub(super) fn start(
        command: &[String],
        cwd: Option<&Path>,
        log: &StderrLog,
        timeout: Duration,
    ) -> Result<Self, ExecError> {
        let sink = log.open()?;
        let mut line = Command::new(&command[0]);
        line.args(&command[1..]);
        if let Some(dir) = cwd {
            line.current_dir(dir);
        }
        line.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = group::spawn(line).map_err(|error| ExecError::Start {
            command: command.join(" "),
            error,
        })?;
        log.note(&format!(
            "started `{}` as pid {}",
            command.join(" "),
            child.id()
        ));
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let stderr = LastLines::default();
        let stderr_reader = sink.follow(
            child.stderr.take().expect("piped"),
            child.id(),
            Arc::clone(&stderr),
        );
        let group = Some(child.id() as i32);
        let process = Process {
            child,
            stdin: Some(stdin),
            stdout,
            timeout,
            pending: Vec::new(),
            out: Vec::new(),
            stderr,
            stderr_reader,
            group,
            gone: false,
        };
        for fd in [process.input(), process.stdout.as_raw_fd()] {
            non_blocking(fd).map_err(ExecError::Pipes)?;
        }
        Ok(process)
    }

    /// Sends one message that needs no answer, in one write.
    pub(crate) fn tell(&mut self, message: &Value) -> Result<(), ExecError> {
        let deadline = Instant::now() + self.timeout;
        self.unasked()?;
        self.send(
            |out| serde_json::to_writer(out, message).expect("a JSON value writes"),
            deadline,
        )
    }

    /// Sends the last message before the process is stopped, within a short time, whatever it
    /// wrote before: bailab stops it anyway.
    pub(crate) fn farewell(&mut self, message: &Value) {
        let write = |out: &mut Vec<u8>| serde_json::to_writer(out, message).expect("JSON writes");
        let _ = self.send(write, Instant::now() + GRACE.min(self.timeout));
    }

    /// Sends one message and reads one JSON reply within the time limit.
    pub(super) fn ask(&mut self, message: &Value) -> Result<Value, ExecError> {
        self.ask_with(|out| serde_json::to_writer(out, message).expect("a JSON value writes"))
    }

    /// Sends one message, its JSON text appended by `write` to an empty reused buffer (no end
    /// of line), and reads one JSON reply, the whole within the time limit. A process that
    /// wrote anything before the message, or more than one line after it, has broken the
    /// protocol (one answer per message that asks for one).
    pub(crate) fn ask_with(
        &mut self,
        write: impl FnOnce(&mut Vec<u8>),
    ) -> Result<Value, ExecError> {
        let deadline = Instant::now() + self.timeout;
        self.unasked()?;
        self.send(write, deadline)?;
        let end = self.line_end(deadline)?;
        let line = String::from_utf8_lossy(&self.pending[..end]);
        let reply = serde_json::from_str(&line).map_err(|error| ExecError::NotJson {
            error,
            line: format!("{line:.200}"),
        });
        self.pending.drain(..=end);
        let reply = reply?;
        match self.pending.is_empty() {
            true => Ok(reply),
            false => Err(ExecError::AnsweredTwice(self.first_pending_line())),
        }
    }

    /// The process's input (its write end, held by bailab alone).
    fn input(&self) -> RawFd {
        self.stdin.as_ref().expect("open until dropped").as_raw_fd()
    }

    /// Fails if the process wrote anything that no message asked for (looked for without
    /// waiting; an end of its output is left to the exchange).
    fn unasked(&mut self) -> Result<(), ExecError> {
        if self.pending.is_empty() {
            let mut chunk = [0u8; 8192];
            if let Ok(n @ 1..) = self.stdout.read(&mut chunk) {
                self.pending.extend_from_slice(&chunk[..n]);
            }
        }
        match self.pending.is_empty() {
            true => Ok(()),
            false => Err(ExecError::Unasked(self.first_pending_line())),
        }
    }

    /// The first line of what the process wrote unasked, for an error message.
    fn first_pending_line(&self) -> String {
        let end = self.pending.iter().position(|&b| b == b'\n');
        let line = String::from_utf8_lossy(&self.pending[..end.unwrap_or(self.pending.len())]);
        format!("{line:.200}")
    }

    /// Writes the message `write` appends, and an end of line, by `deadline`.
    fn send(
        &mut self,
        write: impl FnOnce(&mut Vec<u8>),
        deadline: Instant,
    ) -> Result<(), ExecError> {
        self.out.clear();
        write(&mut self.out);
        self.out.push(b'\n');
        let mut sent = 0;
        while sent < self.out.len() {
            let stdin = self.stdin.as_mut().expect("open until dropped");
            match stdin.write(&self.out[sent..]) {
                Ok(n) => sent += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    let fd = self.input();
                    if !wait_for(fd, libc::POLLOUT, deadline, "to write to it")? {
                        return Err(ExecError::WriteTimeout(self.timeout.as_millis()));
                    }
                }
                Err(_) => return Err(self.ended("input")),
            }
        }
        Ok(())
    }

    /// Where the next line the process writes ends (its end of line, in `pending`), waited for
    /// until `deadline`.
    fn line_end(&mut self, deadline: Instant) -> Result<usize, ExecError> {
        let mut chunk = [0u8; 8192];
        loop {
            if let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
                return Ok(end);
            }
            if self.pending.len() > MAX_LINE {
                return Err(ExecError::LineTooLong);
            }
            let fd = self.stdout.as_raw_fd();
            if !wait_for(fd, libc::POLLIN, deadline, "for its answer")? {
                return Err(ExecError::AnswerTimeout(self.timeout.as_millis()));
            }
            match self.stdout.read(&mut chunk) {
                Ok(0) => return Err(self.ended("output")),
                Ok(n) => self.pending.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(ExecError::Read(e)),
            }
        }
    }

    /// What became of a process that stopped answering (its `pipe`, `input` or `output`, was
    /// found closed): its exit status, or that it closed the pipe while still running; and its
    /// last stderr lines. It is killed, with every process it started.
    fn ended(&mut self, pipe: &'static str) -> ExecError {
        self.gone = true;
        let exited = self.exited_within(Duration::from_millis(500));
        self.kill_group();
        let status = exited.then(|| self.child.wait().ok()).flatten();
        self.stderr_read_within(Duration::from_millis(500));
        let stderr = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        ExecError::Ended {
            pipe,
            status,
            stderr: stderr.iter().cloned().collect(),
        }
    }

    /// Whether the process ends within `wait` (looked at without reaping it, so that its
    /// process group's id stays its own until the group is killed).
    fn exited_within(&self, wait: Duration) -> bool {
        let steps = (wait.as_millis() / 10).max(1);
        (0..steps).any(|_| {
            // SAFETY: a zeroed siginfo_t, filled by waitid for this frame's duration.
            let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
            let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
            // SAFETY: waitid on the process's own id, `info` valid for writes.
            let r = unsafe { libc::waitid(libc::P_PID, self.child.id(), &mut info, flags) };
            let exited = match r {
                // SAFETY: waitid filled `info` (si_pid is 0 while the process runs).
                0 => (unsafe { info.si_pid() }) != 0,
                // Reaped already (not by bailab's code, which reaps after the group's end).
                _ => std::io::Error::last_os_error().raw_os_error() == Some(libc::ECHILD),
            };
            if !exited {
                std::thread::sleep(Duration::from_millis(10));
            }
            exited
        })
    }

    /// Kills the process and every process it started, once.
    fn kill_group(&mut self) {
        if let Some(group) = self.group.take() {
            group::kill_group(group);
        }
    }

    /// Waits up to `wait` for the thread copying the process's stderr to reach its end (its last
    /// lines logged).
    fn stderr_read_within(&self, wait: Duration) {
        let steps = (wait.as_millis() / 10).max(1);
        for _ in 0..steps {
            if self.stderr_reader.is_finished() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// Waits until `fd` is ready for `events` (or hung up) or `deadline` passes; false at the
/// deadline. `what` says what was waited for, in an error message.
fn wait_for(
    fd: RawFd,
    events: i16,
    deadline: Instant,
    what: &'static str,
) -> Result<bool, ExecError> {
    let mut poll = libc::pollfd {
        fd,
        events,
        revents: 0,
    };
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(false);
        }
        let ms = left.as_millis().clamp(1, i32::MAX as u128) as i32;
        // SAFETY: one valid pollfd, owned by this frame, for the call's duration.
        let ready = unsafe { libc::poll(&mut poll, 1, ms) };
        if ready > 0 {
            return Ok(true);
        }
        let e = std::io::Error::last_os_error();
        if ready < 0 && e.kind() != std::io::ErrorKind::Interrupted {
            return Err(ExecError::Wait { what, error: e });
        }
    }
}

/// Makes the pipe end `fd` non-blocking (bailab's end only: the process's end is another open
/// file).
fn non_blocking(fd: RawFd) -> std::io::Result<()> {
    // SAFETY: fcntl on a descriptor this process owns.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    // SAFETY: as above.
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

impl Drop for Process {
    /// Closes the process's input (a well-behaved agent ends there), kills it if it has not
    /// ended within a moment, and with it every process it started; its last stderr lines are
    /// logged.
    fn drop(&mut self) {
        drop(self.stdin.take());
        self.exited_within(GRACE);
        self.kill_group();
        let _ = self.child.wait();
        self.stderr_read_within(GRACE);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_that_reads_nothing_cannot_block_a_write_past_the_time_limit() {
        let command = ["sleep".to_string(), "30".to_string()];
        let timeout = Duration::from_millis(300);
        let mut process = Process::start(&command, None, &StderrLog::Terminal, timeout).unwrap();
        let began = Instant::now();
        // Far more than a pipe holds.
        let err = process
            .ask_with(|out| out.resize(4 << 20, b' '))
            .unwrap_err();
        assert!(matches!(err, ExecError::WriteTimeout(300)), "{err}");
        assert!(
            began.elapsed() < Duration::from_secs(2),
            "{:?}",
            began.elapsed()
        );
    }
}
