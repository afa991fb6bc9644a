//! Sorting for the cold paths: the open-list read-outs, overlays, repairs after edits and the
//! precomputation of JPS+ and HPA*. One small heap sort per element type, with the comparison
//! passed as `&dyn Fn`, instead of the standard library's sorts, whose code is instantiated
//! anew for every element type and comparison and came to a seventh of the wasm module. The
//! searches' own open lists keep the standard sorts (open_list.rs).

use std::cmp::Ordering;

/// How two items compare.
pub(crate) type Compare<'a, T> = &'a dyn Fn(&T, &T) -> Ordering;

/// Sorts `v` by `cmp`, not stably (ties may come in any order), in O(n log n) without
/// allocating.
pub(crate) fn sort_by<T>(v: &mut [T], cmp: Compare<'_, T>) {
    let n = v.len();
    for i in (0..n / 2).rev() {
        sift_down(v, i, n, cmp);
    }
    for end in (1..n).rev() {
        v.swap(0, end);
        sift_down(v, 0, end, cmp);
    }
}

/// The `limit` least items of `v` by `cmp`, least first, in O(n log limit).
pub(crate) fn least<T>(mut v: Vec<T>, limit: usize, cmp: Compare<'_, T>) -> Vec<T> {
    if v.len() > limit {
        if limit == 0 {
            return Vec::new();
        }
        // A max-heap of the first `limit` items; each later item less than its top replaces it.
        for i in (0..limit / 2).rev() {
            sift_down(&mut v, i, limit, cmp);
        }
        for k in limit..v.len() {
            if cmp(&v[k], &v[0]) == Ordering::Less {
                v.swap(0, k);
                sift_down(&mut v, 0, limit, cmp);
            }
        }
        v.truncate(limit);
    }
    sort_by(&mut v, cmp);
    v
}

/// Moves `v[i]` down the max-heap `v[..n]` to its place.
fn sift_down<T>(v: &mut [T], mut i: usize, n: usize, cmp: Compare<'_, T>) {
    loop {
        let mut child = 2 * i + 1;
        if child >= n {
            return;
        }
        if child + 1 < n && cmp(&v[child], &v[child + 1]) == Ordering::Less {
            child += 1;
        }
        if cmp(&v[i], &v[child]) != Ordering::Less {
            return;
        }
        v.swap(i, child);
        i = child;
    }
}

#[cfg(test)]
mod tests {
    use super::{least, sort_by};

    /// A small deterministic generator (xorshift), so the test needs no dependency.
    fn numbers(seed: u64, n: usize) -> Vec<u32> {
        let mut s = seed | 1;
        (0..n)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                (s % 50) as u32
            })
            .collect()
    }

    #[test]
    fn heap_sort_agrees_with_the_standard_sort() {
        for n in 0..70 {
            let mut v = numbers(n as u64 + 7, n);
            let mut want = v.clone();
            want.sort_unstable();
            sort_by(&mut v, &Ord::cmp);
            assert_eq!(v, want, "n = {n}");
        }
    }

    #[test]
    fn least_gives_the_first_items_of_the_sorted_list() {
        for n in 0..60 {
            for limit in [0, 1, 2, 5, 17, 59, 60, 100] {
                let v = numbers(n as u64 * 31 + limit as u64, n);
                let mut want = v.clone();
                want.sort_unstable_by(|a, b| b.cmp(a));
                want.truncate(limit);
                assert_eq!(least(v, limit, &|a: &u32, b: &u32| b.cmp(a)), want, "n = {n}, limit = {limit}");
            }
        }
    }
}
