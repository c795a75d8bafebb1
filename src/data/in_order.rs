//! Work on all cores, results in input order: the mechanism of the batch commands
//! (`referee`, `unwinnable --epd`; `texel` takes its pool). The input is read on the calling
//! thread while the items are worked on a thread pool, at most a window ahead of the one
//! handed on next, so the output keeps the input's order and memory stays flat however long
//! the input is.

use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

/// A pool of `threads` workers (default: one per core; 0 counts as 1), or the exit code of a
/// subcommand that cannot start them (the error printed).
pub fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, ExitCode> {
    let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build().map_err(|e| {
        eprintln!("error: cannot start threads: {e}");
        ExitCode::from(2)
    })
}

/// Runs `work` on every item of `items` on `pool`, at most `window` items ahead of the one
/// handed to `emit` next, and hands the results to `emit` in the items' order. `emit` returns
/// false to stop (its reader went away): no item is read or started after that. A panic in
/// `work` is resumed here, in its item's turn.
pub fn map_in_order<T: Send, R: Send>(
    pool: &rayon::ThreadPool,
    items: impl IntoIterator<Item = T>,
    window: usize,
    work: impl Fn(T) -> R + Sync,
    mut emit: impl FnMut(R) -> bool,
) {
    let stopped = AtomicBool::new(false);
    let (work, stopped) = (&work, &stopped);
    pool.in_place_scope_fifo(|scope| {
        let (tx, rx) = mpsc::channel::<(usize, std::thread::Result<R>)>();
        let mut waiting = BTreeMap::new();
        // The index of the item whose result goes out next.
        let mut next = 0;
        // Waits for the next result and hands it on with any that follow it in order; false
        // once `emit` has asked to stop.
        let mut emit_next = |next: &mut usize| -> bool {
            while !waiting.contains_key(next) {
                match rx.recv() {
                    Ok((index, result)) => {
                        waiting.insert(index, result);
                    }
                    Err(_) => return false, // every worker is gone: nothing more can come
                }
            }
            while let Some(result) = waiting.remove(next) {
                *next += 1;
                let going_on = match result {
                    Ok(r) => emit(r),
                    Err(payload) => {
                        stopped.store(true, Ordering::Relaxed);
                        panic::resume_unwind(payload)
                    }
                };
                if !going_on {
                    stopped.store(true, Ordering::Relaxed);
                    return false;
                }
            }
            true
        };
        let mut started = 0;
        for item in items {
            if started - next >= window.max(1) && !emit_next(&mut next) {
                return;
            }
            let tx = tx.clone();
            let index = started;
            scope.spawn_fifo(move |_| {
                // After a stop the queued items are dropped unworked.
                if !stopped.load(Ordering::Relaxed) {
                    let _ = tx.send((index, panic::catch_unwind(AssertUnwindSafe(|| work(item)))));
                }
            });
            started += 1;
        }
        drop(tx);
        while next < started {
            if !emit_next(&mut next) {
                return;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    fn two_threads() -> rayon::ThreadPool {
        pool(Some(2)).expect("a pool of two threads")
    }

    #[test]
    fn results_come_in_input_order_whatever_order_they_finish_in() {
        let mut seen = Vec::new();
        // Early items take longest, so later ones finish first.
        map_in_order(
            &two_threads(),
            0..200u64,
            16,
            |i| {
                std::thread::sleep(std::time::Duration::from_micros(200 * (i % 7)));
                i * i
            },
            |r| {
                seen.push(r);
                true
            },
        );
        assert_eq!(seen, (0..200u64).map(|i| i * i).collect::<Vec<_>>());
    }

    #[test]
    fn no_more_than_the_window_is_read_ahead_of_the_output() {
        let read = AtomicUsize::new(0);
        let mut emitted = 0;
        let items = (0..500).inspect(|_| {
            read.fetch_add(1, Ordering::SeqCst);
        });
        map_in_order(
            &two_threads(),
            items,
            8,
            |i| i,
            |_| {
                emitted += 1;
                // The item handed on is read, and at most the window (8) after it besides it.
                let ahead = read.load(Ordering::SeqCst) - emitted;
                assert!(ahead <= 8, "{ahead} items read ahead of the output");
                true
            },
        );
        assert_eq!(emitted, 500);
    }

    #[test]
    fn a_stop_reads_and_starts_nothing_more() {
        let (read, worked) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let items = (0..10_000).inspect(|_| {
            read.fetch_add(1, Ordering::SeqCst);
        });
        let mut emitted = 0;
        map_in_order(
            &two_threads(),
            items,
            4,
            |i| {
                worked.fetch_add(1, Ordering::SeqCst);
                i
            },
            |_| {
                emitted += 1;
                emitted < 10
            },
        );
        assert_eq!(emitted, 10);
        // At most the window and the one that stopped were read; fewer were worked.
        assert!(read.load(Ordering::SeqCst) <= 10 + 4, "{} read", read.load(Ordering::SeqCst));
        assert!(worked.load(Ordering::SeqCst) <= read.load(Ordering::SeqCst));
    }

    #[test]
    fn a_panic_in_the_work_reaches_the_caller_in_its_turn() {
        let mut emitted = Vec::new();
        let caught = panic::catch_unwind(AssertUnwindSafe(|| {
            map_in_order(
                &two_threads(),
                0..100,
                8,
                |i| {
                    assert!(i != 37, "item 37");
                    i
                },
                |r| {
                    emitted.push(r);
                    true
                },
            )
        }));
        assert!(caught.is_err());
        assert_eq!(emitted, (0..37).collect::<Vec<_>>());
    }
}
