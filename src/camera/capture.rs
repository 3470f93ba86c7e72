//! The capture thread: runs a [`FrameSource`] on a named thread, paces file sources, retries a
//! webcam that went away, and hands frames to the UI without ever blocking it.
//!
//! Frames go through a one-frame mailbox: a new frame replaces one the UI has not taken yet (the
//! stale one is dropped and counted), so the UI always gets the newest. Errors and status go
//! through an unbounded channel (they are few: retries back off). After each delivery the thread
//! calls `wake` (the app passes `egui::Context::request_repaint`).

use super::{CameraError, Frame, FrameSource};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Frames the mailbox holds: one — a newer frame replaces an untaken one.
pub const FRAME_CHANNEL_DEPTH: usize = 1;

/// First wait before reopening a source that failed (a webcam unplugged mid-stream).
pub const RETRY_FIRST: Duration = Duration::from_millis(500);

/// Longest wait between reopen attempts.
pub const RETRY_MAX: Duration = Duration::from_secs(5);

/// Status from the capture thread.
#[derive(Debug, Clone, PartialEq)]
pub enum CaptureEvent {
    /// The source failed; a webcam is being retried, any other source has stopped.
    Error(CameraError),
    /// A source that failed works again.
    Recovered,
    /// The source has no more frames (or failed for good); the thread has ended.
    Ended,
}

/// Time for the capture thread, so tests can run it on a virtual clock.
pub trait Clock: Send + 'static {
    /// Time since the stream started.
    fn now(&self) -> Duration;
    /// Wait until `t` (since the start), or until `stop` is signalled or dropped. Returns `false`
    /// when stopped.
    fn wait_until(&self, t: Duration, stop: &Receiver<()>) -> bool;
}

/// The real clock.
#[derive(Debug)]
pub struct SystemClock {
    start: Instant,
}

impl Default for SystemClock {
    fn default() -> Self {
        Self { start: Instant::now() }
    }
}

impl Clock for SystemClock {
    fn now(&self) -> Duration {
        self.start.elapsed()
    }

    fn wait_until(&self, t: Duration, stop: &Receiver<()>) -> bool {
        let wait = t.saturating_sub(self.now());
        !matches!(stop.recv_timeout(wait), Ok(()) | Err(RecvTimeoutError::Disconnected))
    }
}

struct Mailbox {
    slot: Mutex<Option<Frame>>,
    dropped: AtomicU64,
}

/// A running capture thread (named `camera-capture`). Dropping it stops and joins the thread.
pub struct Capture {
    mailbox: Arc<Mailbox>,
    events: Receiver<CaptureEvent>,
    stop: Option<Sender<()>>,
    handle: Option<JoinHandle<()>>,
    description: String,
}

impl std::fmt::Debug for Capture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Capture").field("source", &self.description).finish_non_exhaustive()
    }
}

impl Capture {
    /// Start capturing from `source` on the real clock; `wake` is called after each frame or event.
    pub fn start(source: Box<dyn FrameSource>, wake: impl Fn() + Send + 'static) -> Result<Self, CameraError> {
        Self::start_with_clock(source, SystemClock::default(), wake)
    }

    /// Start capturing with a given clock (tests use a virtual one).
    pub fn start_with_clock(
        mut source: Box<dyn FrameSource>,
        clock: impl Clock,
        wake: impl Fn() + Send + 'static,
    ) -> Result<Self, CameraError> {
        let mailbox = Arc::new(Mailbox { slot: Mutex::new(None), dropped: AtomicU64::new(0) });
        let (ev_tx, events) = mpsc::channel();
        let (stop, stop_rx) = mpsc::channel::<()>();
        let description = source.describe();
        let mb = Arc::clone(&mailbox);
        let handle = std::thread::Builder::new()
            .name("camera-capture".into())
            .spawn(move || run(source.as_mut(), &clock, &mb, &ev_tx, &stop_rx, &wake))
            .map_err(|e| CameraError::Open {
                device: description.clone(),
                reason: format!("cannot start thread: {e}"),
            })?;
        Ok(Self { mailbox, events, stop: Some(stop), handle: Some(handle), description })
    }

    /// The newest frame not yet taken, if any. Never blocks: if the capture thread is putting a
    /// frame in at this instant, returns `None` and the frame is there next time.
    pub fn latest(&self) -> Option<Frame> {
        self.mailbox.slot.try_lock().ok().and_then(|mut s| s.take())
    }

    /// Status events since the last call (never blocks).
    pub fn events(&self) -> Vec<CaptureEvent> {
        self.events.try_iter().collect()
    }

    /// Frames replaced in the mailbox before the UI took them.
    pub fn dropped(&self) -> u64 {
        self.mailbox.dropped.load(Ordering::Relaxed)
    }

    /// What the source is.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Whether the thread has ended.
    pub fn is_finished(&self) -> bool {
        self.handle.as_ref().is_none_or(|h| h.is_finished())
    }

    /// Stop the thread and wait for it.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(h) = self.handle.take()
            && h.join().is_err()
        {
            log::error!("camera-capture thread panicked");
        }
    }
}

impl Drop for Capture {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn stopped(stop: &Receiver<()>) -> bool {
    !matches!(stop.try_recv(), Err(TryRecvError::Empty))
}

fn run(
    source: &mut dyn FrameSource,
    clock: &dyn Clock,
    mailbox: &Mailbox,
    events: &Sender<CaptureEvent>,
    stop: &Receiver<()>,
    wake: &dyn Fn(),
) {
    let mut seq = 0u64;
    let mut due = clock.now();
    let event = |e: CaptureEvent| {
        let _ = events.send(e);
        wake();
    };
    loop {
        if stopped(stop) {
            return;
        }
        if let Some(iv) = source.interval() {
            if !clock.wait_until(due, stop) {
                return;
            }
            due += iv;
        }
        match source.next_frame() {
            Ok(Some(image)) => {
                let frame = Frame { image: Arc::new(image), seq, at: clock.now() };
                seq += 1;
                match mailbox.slot.lock() {
                    Ok(mut slot) => {
                        if slot.replace(frame).is_some() {
                            mailbox.dropped.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    Err(_) => return,
                }
                wake();
            }
            Ok(None) => {
                event(CaptureEvent::Ended);
                return;
            }
            Err(e) => {
                event(CaptureEvent::Error(e));
                if !source.retry_on_error() {
                    event(CaptureEvent::Ended);
                    return;
                }
                let mut backoff = RETRY_FIRST;
                loop {
                    if !clock.wait_until(clock.now() + backoff, stop) {
                        return;
                    }
                    match source.reopen() {
                        Ok(()) => {
                            event(CaptureEvent::Recovered);
                            due = clock.now();
                            break;
                        }
                        Err(e) => {
                            event(CaptureEvent::Error(e));
                            backoff = (backoff * 2).min(RETRY_MAX);
                        }
                    }
                }
            }
        }
    }
}
