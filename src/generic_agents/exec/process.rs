//! One running agent process: it is sent a JSON line and answers one, the whole exchange (the
//! write as much as the answer) within a time limit; its standard error goes to a log and its
//! last lines are kept for error messages. Both pipes are non-blocking: the deciding thread
//! waits on them itself (poll(2) with the time left), so a round trip costs the two processes'
//! wake-ups and nothing more, and an agent that stops reading cannot block bailab.

use super::group;
use super::log::{LastLines, StderrLog};
use serde_json::Value;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest answer line, in bytes: a longer one is an error, not a memory hog.
const MAX_LINE: usize = 1 << 20;

/// How long a process that was told to stop (its input closed) may take to end before it is
/// killed, and how long its last message (`error`) may take to write.
const GRACE: Duration = Duration::from_millis(200);

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
    ) -> Result<Self, String> {
        let sink = log.open()?;
        let mut line = Command::new(&command[0]);
        line.args(&command[1..]);
        if let Some(dir) = cwd {
            line.current_dir(dir);
        }
        line.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = group::spawn(line)
            .map_err(|e| format!("could not start `{}`: {e}", command.join(" ")))?;
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
            non_blocking(fd).map_err(|e| format!("its pipes could not be set up: {e}"))?;
        }
        Ok(process)
    }

    /// Sends one message that needs no answer, in one write.
    pub(crate) fn tell(&mut self, message: &Value) -> Result<(), String> {
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
    pub(super) fn ask(&mut self, message: &Value) -> Result<Value, String> {
        self.ask_with(|out| serde_json::to_writer(out, message).expect("a JSON value writes"))
    }

    /// Sends one message, its JSON text appended by `write` to an empty reused buffer (no end
    /// of line), and reads one JSON reply, the whole within the time limit. A process that
    /// wrote anything before the message, or more than one line after it, has broken the
    /// protocol (one answer per message that asks for one).
    pub(crate) fn ask_with(&mut self, write: impl FnOnce(&mut Vec<u8>)) -> Result<Value, String> {
        let deadline = Instant::now() + self.timeout;
        self.unasked()?;
        self.send(write, deadline)?;
        let end = self.line_end(deadline)?;
        let line = String::from_utf8_lossy(&self.pending[..end]);
        let reply = serde_json::from_str(&line)
            .map_err(|e| format!("answered a line that is not JSON ({e}): {line:.200}"));
        self.pending.drain(..=end);
        let reply = reply?;
        match self.pending.is_empty() {
            true => Ok(reply),
            false => Err(format!(
                "answered more than once: after its answer it wrote {}",
                self.first_pending_line()
            )),
        }
    }

    /// The process's input (its write end, held by bailab alone).
    fn input(&self) -> RawFd {
        self.stdin.as_ref().expect("open until dropped").as_raw_fd()
    }

    /// Fails if the process wrote anything that no message asked for (looked for without
    /// waiting; an end of its output is left to the exchange).
    fn unasked(&mut self) -> Result<(), String> {
        if self.pending.is_empty() {
            let mut chunk = [0u8; 8192];
            if let Ok(n @ 1..) = self.stdout.read(&mut chunk) {
                self.pending.extend_from_slice(&chunk[..n]);
            }
        }
        match self.pending.is_empty() {
            true => Ok(()),
            false => Err(format!(
                "wrote {} when no answer was asked for (one answer per decision)",
                self.first_pending_line()
            )),
        }
    }

    /// The first line of what the process wrote unasked, for an error message.
    fn first_pending_line(&self) -> String {
        let end = self.pending.iter().position(|&b| b == b'\n');
        let line = String::from_utf8_lossy(&self.pending[..end.unwrap_or(self.pending.len())]);
        format!("{line:.200}")
    }

    /// Writes the message `write` appends, and an end of line, by `deadline`.
    fn send(&mut self, write: impl FnOnce(&mut Vec<u8>), deadline: Instant) -> Result<(), String> {
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
                        return Err(format!(
                            "did not read its input within {} ms",
                            self.timeout.as_millis()
                        ));
                    }
                }
                Err(_) => return Err(self.ended("input")),
            }
        }
        Ok(())
    }

    /// Where the next line the process writes ends (its end of line, in `pending`), waited for
    /// until `deadline`.
    fn line_end(&mut self, deadline: Instant) -> Result<usize, String> {
        let mut chunk = [0u8; 8192];
        loop {
            if let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
                return Ok(end);
            }
            if self.pending.len() > MAX_LINE {
                return Err(format!("answered a line over {MAX_LINE} bytes"));
            }
            let fd = self.stdout.as_raw_fd();
            if !wait_for(fd, libc::POLLIN, deadline, "for its answer")? {
                return Err(format!(
                    "did not answer within {} ms",
                    self.timeout.as_millis()
                ));
            }
            match self.stdout.read(&mut chunk) {
                Ok(0) => return Err(self.ended("output")),
                Ok(n) => self.pending.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(format!("its output could not be read: {e}")),
            }
        }
    }

    /// What became of a process that stopped answering (its `pipe`, `input` or `output`, was
    /// found closed): its exit status, or that it closed the pipe while still running; and its
    /// last stderr lines. It is killed, with every process it started.
    fn ended(&mut self, pipe: &str) -> String {
        self.gone = true;
        let exited = self.exited_within(Duration::from_millis(500));
        self.kill_group();
        let status = exited.then(|| self.child.wait().ok()).flatten();
        let what = match status {
            Some(s) => format!("its process ended ({s})"),
            None => {
                format!("it closed its {pipe} while its process was still running (now killed)")
            }
        };
        self.stderr_read_within(Duration::from_millis(500));
        let stderr = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        let last: Vec<&str> = stderr.iter().map(String::as_str).collect();
        format!(
            "{what}; its last stderr lines: {}",
            if last.is_empty() {
                "none".to_string()
            } else {
                last.join(" | ")
            }
        )
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
fn wait_for(fd: RawFd, events: i16, deadline: Instant, what: &str) -> Result<bool, String> {
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
            return Err(format!("waiting {what} failed: {e}"));
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
        assert!(
            err.contains("did not read its input within 300 ms"),
            "{err}"
        );
        assert!(
            began.elapsed() < Duration::from_secs(2),
            "{:?}",
            began.elapsed()
        );
    }
}
