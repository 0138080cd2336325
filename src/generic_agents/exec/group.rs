//! Agent processes as process groups: each agent starts as the leader of a group of its own, so
//! that it and every process it forks end together ([`kill_group`]) on a fault, at the end of
//! its use, and at bailab's own exit ([`kill_agents`], for exits that skip destructors). When
//! bailab dies without a word (SIGKILL), its agents notice: their standard input closes (bailab
//! alone holds its write end, opened close-on-exec) and, on Linux, the agent itself is sent
//! SIGKILL (`PR_SET_PDEATHSIG`).
//!
//! The parent-death signal fires when the *thread* that started the process ends, so every
//! agent is started by one thread that lives as long as bailab.

use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Mutex, OnceLock};

/// The process groups of the agents running now.
static GROUPS: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// A command to start, and where its process goes.
type Start = (Command, Sender<io::Result<Child>>);

/// The thread that starts every agent process.
static STARTER: OnceLock<Sender<Start>> = OnceLock::new();

/// Starts `command` as the leader of a new process group, from the one thread that starts
/// agents.
pub(super) fn spawn(mut command: Command) -> io::Result<Child> {
    command.process_group(0);
    die_with_bailab(&mut command);
    let starter = STARTER.get_or_init(|| {
        let (send, receive) = channel::<Start>();
        std::thread::Builder::new()
            .name("bailab-agent-starter".into())
            .spawn(move || {
                for (mut command, back) in receive {
                    let child = command.spawn();
                    if let Ok(child) = &child {
                        lock().push(child.id() as i32);
                    }
                    let _ = back.send(child);
                }
            })
            .expect("a thread starts");
        send
    });
    let (back, child) = channel();
    starter
        .send((command, back))
        .map_err(|_| io::Error::other("the agent starter thread is gone"))?;
    child
        .recv()
        .map_err(|_| io::Error::other("the agent starter thread is gone"))?
}

/// Asks Linux to send SIGKILL to the process when bailab's starter thread ends (with bailab).
#[cfg(target_os = "linux")]
fn die_with_bailab(command: &mut Command) {
    // SAFETY: getpid is async-signal-safe.
    let bailab = unsafe { libc::getpid() };
    // SAFETY: the hook calls only async-signal-safe functions (prctl, getppid).
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(io::Error::last_os_error());
            }
            // bailab died before the request took hold.
            if libc::getppid() != bailab {
                return Err(io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        })
    };
}

/// Elsewhere, an orphaned agent notices only that its input has closed.
#[cfg(not(target_os = "linux"))]
fn die_with_bailab(_command: &mut Command) {}

fn lock() -> std::sync::MutexGuard<'static, Vec<i32>> {
    GROUPS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kills the process group `group` (SIGKILL), an agent and whatever it started. Call it before
/// the leader is reaped, so that its id cannot have been given to another process.
pub(crate) fn kill_group(group: i32) {
    let mut groups = lock();
    groups.retain(|&g| g != group);
    // SAFETY: a signal to a process group bailab started.
    unsafe { libc::kill(-group, libc::SIGKILL) };
}

/// Kills every agent process group still running: for bailab's exits that skip destructors (a
/// second Ctrl-C or SIGTERM).
pub(crate) fn kill_agents() {
    for group in std::mem::take(&mut *lock()) {
        // SAFETY: a signal to a process group bailab started.
        unsafe { libc::kill(-group, libc::SIGKILL) };
    }
}
