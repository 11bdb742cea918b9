//! Caps on what one fuzz input may cost: a time cap watched by a thread of its own and a memory
//! cap kept by the allocator. Going over either aborts the process, which the fuzzer records as a
//! crash with the input that caused it, and says which cap and by how much.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Once;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The allocator of a capped target: the system's, counting the bytes held.
pub struct Capped;

static HELD: AtomicUsize = AtomicUsize::new(0);
static MEMORY_CAP: AtomicUsize = AtomicUsize::new(usize::MAX);

unsafe impl GlobalAlloc for Capped {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let held = HELD.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        if held > MEMORY_CAP.load(Ordering::Relaxed) {
            over_memory(held);
        }
        // SAFETY: the caller's layout is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` came from `alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Says which cap was passed, without allocating (the allocator is what refused), and aborts.
fn over_memory(held: usize) -> ! {
    use std::io::Write;
    let mut line = [0u8; 96];
    let mut cursor = std::io::Cursor::new(&mut line[..]);
    let _ = writeln!(cursor, "resource cap: {} MiB held", held >> 20);
    let written = cursor.position() as usize;
    let _ = std::io::stderr().write_all(&line[..written]);
    std::process::abort()
}

static STARTED_MS: AtomicU64 = AtomicU64::new(0);
static RUNNING: AtomicBool = AtomicBool::new(false);
static WATCH: Once = Once::new();

/// Runs `work` under the caps: aborts if it holds more than `memory` bytes at once (counting
/// what the process held before it) or runs longer than `time`.
pub fn within(memory: usize, time: Duration, work: impl FnOnce()) {
    let epoch = epoch();
    WATCH.call_once(|| {
        std::thread::spawn(move || watch(epoch, time));
    });
    MEMORY_CAP.store(HELD.load(Ordering::Relaxed) + memory, Ordering::Relaxed);
    STARTED_MS.store(epoch.elapsed().as_millis() as u64, Ordering::Relaxed);
    RUNNING.store(true, Ordering::Release);
    work();
    RUNNING.store(false, Ordering::Release);
    MEMORY_CAP.store(usize::MAX, Ordering::Relaxed);
}

fn epoch() -> Instant {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn watch(epoch: Instant, time: Duration) {
    loop {
        std::thread::sleep(Duration::from_millis(50));
        // Running is read first: a start read after it is this input's or a later one's.
        let running = RUNNING.load(Ordering::Acquire);
        let took =
            (epoch.elapsed().as_millis() as u64).saturating_sub(STARTED_MS.load(Ordering::Relaxed));
        if running && took > time.as_millis() as u64 {
            eprintln!("resource cap: {took} ms on one input");
            std::process::abort();
        }
    }
}
