//! Four numbers worked on together, for the step's inner loop over neighbours.
//!
//! [`F4`] holds four `f32`, [`I4`] four `i32` (slot numbers), and [`M4`] four
//! yes/no answers about them. Built for WebAssembly with `simd128` (see `.cargo/config.toml`)
//! each operation is one vector instruction (a yes lane is all ones, as vector compare
//! instructions give it); elsewhere the lanes are plain arrays worked on lane by lane, which
//! the compiler turns into vector instructions where it can (SSE on x86-64). Both give the
//! same results: every lane is computed as the scalar code would.
//!
//! ```
//! use pathlab_core::boids::lanes::F4;
//! let a = F4::new([1.0, 4.0, 9.0, 16.0]);
//! let inside = a.sqrt().lt(F4::splat(3.0));
//! assert_eq!(inside.keep(F4::splat(1.0)).sum(), 2.0);
//! assert_eq!(inside.keep(a).sum(), 5.0);
//! ```

// Each operation is a single instruction behind a call; not inlining one would wreck the loop.
#![allow(clippy::inline_always)]

use std::fmt;
use std::ops::{Add, BitAnd, Div, Mul, Sub};

/// The number of lanes.
pub const LANES: usize = 4;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod imp {
    //! WebAssembly `simd128`: one `v128` per value.
    use core::arch::wasm32::{
        f32x4, f32x4_add, f32x4_div, f32x4_extract_lane, f32x4_ge, f32x4_gt, f32x4_le, f32x4_lt, f32x4_max, f32x4_mul,
        f32x4_splat, f32x4_sqrt, f32x4_sub, i32x4, i32x4_add, i32x4_extract_lane, i32x4_lt, i32x4_ne, i32x4_splat,
        v128, v128_and, v128_any_true,
    };

    #[derive(Clone, Copy)]
    pub struct F4(v128);

    #[derive(Clone, Copy)]
    pub struct I4(v128);

    #[derive(Clone, Copy)]
    pub struct M4(v128);

    impl F4 {
        #[inline(always)]
        pub fn splat(v: f32) -> Self {
            Self(f32x4_splat(v))
        }
        #[inline(always)]
        pub fn new(a: [f32; 4]) -> Self {
            Self(f32x4(a[0], a[1], a[2], a[3]))
        }
        #[inline(always)]
        pub fn to_array(self) -> [f32; 4] {
            let v = self.0;
            let lane = |l: usize| match l {
                0 => f32x4_extract_lane::<0>(v),
                1 => f32x4_extract_lane::<1>(v),
                2 => f32x4_extract_lane::<2>(v),
                _ => f32x4_extract_lane::<3>(v),
            };
            [lane(0), lane(1), lane(2), lane(3)]
        }
        #[inline(always)]
        pub fn add(self, o: Self) -> Self {
            Self(f32x4_add(self.0, o.0))
        }
        #[inline(always)]
        pub fn sub(self, o: Self) -> Self {
            Self(f32x4_sub(self.0, o.0))
        }
        #[inline(always)]
        pub fn mul(self, o: Self) -> Self {
            Self(f32x4_mul(self.0, o.0))
        }
        #[inline(always)]
        pub fn div(self, o: Self) -> Self {
            Self(f32x4_div(self.0, o.0))
        }
        #[inline(always)]
        pub fn sqrt(self) -> Self {
            Self(f32x4_sqrt(self.0))
        }
        #[inline(always)]
        pub fn max(self, o: Self) -> Self {
            Self(f32x4_max(self.0, o.0))
        }
        #[inline(always)]
        pub fn lt(self, o: Self) -> M4 {
            M4(f32x4_lt(self.0, o.0))
        }
        #[inline(always)]
        pub fn le(self, o: Self) -> M4 {
            M4(f32x4_le(self.0, o.0))
        }
        #[inline(always)]
        pub fn gt(self, o: Self) -> M4 {
            M4(f32x4_gt(self.0, o.0))
        }
        #[inline(always)]
        pub fn ge(self, o: Self) -> M4 {
            M4(f32x4_ge(self.0, o.0))
        }
    }

    impl I4 {
        #[inline(always)]
        pub fn splat(v: i32) -> Self {
            Self(i32x4_splat(v))
        }
        #[inline(always)]
        pub fn new(a: [i32; 4]) -> Self {
            Self(i32x4(a[0], a[1], a[2], a[3]))
        }
        #[inline(always)]
        pub fn to_array(self) -> [i32; 4] {
            let v = self.0;
            let lane = |l: usize| match l {
                0 => i32x4_extract_lane::<0>(v),
                1 => i32x4_extract_lane::<1>(v),
                2 => i32x4_extract_lane::<2>(v),
                _ => i32x4_extract_lane::<3>(v),
            };
            [lane(0), lane(1), lane(2), lane(3)]
        }
        #[inline(always)]
        pub fn add(self, o: Self) -> Self {
            Self(i32x4_add(self.0, o.0))
        }
        #[inline(always)]
        pub fn lt(self, o: Self) -> M4 {
            M4(i32x4_lt(self.0, o.0))
        }
        #[inline(always)]
        pub fn ne(self, o: Self) -> M4 {
            M4(i32x4_ne(self.0, o.0))
        }
    }

    impl M4 {
        #[inline(always)]
        pub fn and(self, o: Self) -> Self {
            Self(v128_and(self.0, o.0))
        }
        #[inline(always)]
        pub fn keep(self, v: F4) -> F4 {
            F4(v128_and(v.0, self.0))
        }
        #[inline(always)]
        pub fn any(self) -> bool {
            v128_any_true(self.0)
        }
        #[inline(always)]
        pub fn to_array(self) -> [bool; 4] {
            I4(self.0).to_array().map(|m| m != 0)
        }
    }
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod imp {
    //! Plain arrays, worked on lane by lane. A yes/no lane is 1.0 or 0.0 and masks combine by
    //! multiplying: all arithmetic, which compilers turn into vector instructions reliably,
    //! where lanes of all-ones bits tend to be turned back into branches (around a division,
    //! say) that a crowd makes unpredictable.

    #[inline(always)]
    fn pair<T: Copy, U: Copy + Default>(a: [T; 4], b: [T; 4], f: impl Fn(T, T) -> U) -> [U; 4] {
        let mut out = [U::default(); 4];
        for l in 0..4 {
            out[l] = f(a[l], b[l]);
        }
        out
    }

    #[inline(always)]
    fn one_if(yes: bool) -> f32 {
        if yes {
            1.0
        } else {
            0.0
        }
    }

    #[derive(Clone, Copy)]
    pub struct F4([f32; 4]);

    #[derive(Clone, Copy)]
    pub struct I4([i32; 4]);

    #[derive(Clone, Copy)]
    pub struct M4([f32; 4]);

    impl F4 {
        #[inline(always)]
        pub fn splat(v: f32) -> Self {
            Self([v; 4])
        }
        #[inline(always)]
        pub fn new(a: [f32; 4]) -> Self {
            Self(a)
        }
        #[inline(always)]
        pub fn to_array(self) -> [f32; 4] {
            self.0
        }
        #[inline(always)]
        pub fn add(self, o: Self) -> Self {
            Self(pair(self.0, o.0, |a, b| a + b))
        }
        #[inline(always)]
        pub fn sub(self, o: Self) -> Self {
            Self(pair(self.0, o.0, |a, b| a - b))
        }
        #[inline(always)]
        pub fn mul(self, o: Self) -> Self {
            Self(pair(self.0, o.0, |a, b| a * b))
        }
        #[inline(always)]
        pub fn div(self, o: Self) -> Self {
            Self(pair(self.0, o.0, |a, b| a / b))
        }
        #[inline(always)]
        pub fn sqrt(self) -> Self {
            Self(self.0.map(f32::sqrt))
        }
        #[inline(always)]
        pub fn max(self, o: Self) -> Self {
            Self(pair(self.0, o.0, |a, b| if a > b { a } else { b }))
        }
        #[inline(always)]
        pub fn lt(self, o: Self) -> M4 {
            M4(pair(self.0, o.0, |a, b| one_if(a < b)))
        }
        #[inline(always)]
        pub fn le(self, o: Self) -> M4 {
            M4(pair(self.0, o.0, |a, b| one_if(a <= b)))
        }
        #[inline(always)]
        pub fn gt(self, o: Self) -> M4 {
            M4(pair(self.0, o.0, |a, b| one_if(a > b)))
        }
        #[inline(always)]
        pub fn ge(self, o: Self) -> M4 {
            M4(pair(self.0, o.0, |a, b| one_if(a >= b)))
        }
    }

    impl I4 {
        #[inline(always)]
        pub fn splat(v: i32) -> Self {
            Self([v; 4])
        }
        #[inline(always)]
        pub fn new(a: [i32; 4]) -> Self {
            Self(a)
        }
        #[inline(always)]
        pub fn to_array(self) -> [i32; 4] {
            self.0
        }
        #[inline(always)]
        pub fn add(self, o: Self) -> Self {
            Self(pair(self.0, o.0, i32::wrapping_add))
        }
        #[inline(always)]
        pub fn lt(self, o: Self) -> M4 {
            M4(pair(self.0, o.0, |a, b| one_if(a < b)))
        }
        #[inline(always)]
        pub fn ne(self, o: Self) -> M4 {
            M4(pair(self.0, o.0, |a, b| one_if(a != b)))
        }
    }

    impl M4 {
        #[inline(always)]
        pub fn and(self, o: Self) -> Self {
            Self(pair(self.0, o.0, |a, b| a * b))
        }
        #[inline(always)]
        pub fn keep(self, v: F4) -> F4 {
            F4(pair(v.0, self.0, |x, one| x * one))
        }
        #[inline(always)]
        pub fn any(self) -> bool {
            let [a, b, c, d] = self.0;
            (a + b) + (c + d) > 0.0
        }
        #[inline(always)]
        pub fn to_array(self) -> [bool; 4] {
            self.0.map(|m| m != 0.0)
        }
    }
}

/// Four `f32` lanes.
#[derive(Clone, Copy)]
pub struct F4(imp::F4);

/// Four `i32` lanes: slot numbers.
#[derive(Clone, Copy)]
pub struct I4(imp::I4);

/// Four yes/no lanes.
#[derive(Clone, Copy)]
pub struct M4(imp::M4);

impl F4 {
    /// The same value in every lane.
    #[inline(always)]
    pub fn splat(v: f32) -> Self {
        Self(imp::F4::splat(v))
    }

    /// The four lanes.
    #[inline(always)]
    pub fn new(a: [f32; LANES]) -> Self {
        Self(imp::F4::new(a))
    }

    /// The lanes as an array.
    #[inline(always)]
    pub fn to_array(self) -> [f32; LANES] {
        self.0.to_array()
    }

    /// Square roots.
    #[inline(always)]
    #[must_use]
    pub fn sqrt(self) -> Self {
        Self(self.0.sqrt())
    }

    /// Lane-wise maximum (of numbers that are not NaN).
    #[inline(always)]
    #[must_use]
    pub fn max(self, o: Self) -> Self {
        Self(self.0.max(o.0))
    }

    /// Lanes where `self < o`.
    #[inline(always)]
    pub fn lt(self, o: Self) -> M4 {
        M4(self.0.lt(o.0))
    }

    /// Lanes where `self <= o`.
    #[inline(always)]
    pub fn le(self, o: Self) -> M4 {
        M4(self.0.le(o.0))
    }

    /// Lanes where `self > o`.
    #[inline(always)]
    pub fn gt(self, o: Self) -> M4 {
        M4(self.0.gt(o.0))
    }

    /// Lanes where `self >= o`.
    #[inline(always)]
    pub fn ge(self, o: Self) -> M4 {
        M4(self.0.ge(o.0))
    }

    /// The sum of the lanes, as (lane 0 + lane 1) + (lane 2 + lane 3).
    #[inline(always)]
    pub fn sum(self) -> f32 {
        let [a, b, c, d] = self.to_array();
        (a + b) + (c + d)
    }
}

impl From<&[f32]> for F4 {
    /// The first four numbers of `s`, which must have at least four. (For a slice from
    /// `chunks_exact(LANES)` this compiles to one load.)
    #[inline(always)]
    fn from(s: &[f32]) -> Self {
        Self::new([s[0], s[1], s[2], s[3]])
    }
}

impl Default for F4 {
    fn default() -> Self {
        Self::splat(0.0)
    }
}

impl PartialEq for F4 {
    fn eq(&self, o: &Self) -> bool {
        self.to_array() == o.to_array()
    }
}

impl fmt::Debug for F4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "F4({:?})", self.to_array())
    }
}

impl I4 {
    /// The same value in every lane.
    #[inline(always)]
    pub fn splat(v: i32) -> Self {
        Self(imp::I4::splat(v))
    }

    /// The four lanes.
    #[inline(always)]
    pub fn new(a: [i32; LANES]) -> Self {
        Self(imp::I4::new(a))
    }

    /// The lanes as an array.
    #[inline(always)]
    pub fn to_array(self) -> [i32; LANES] {
        self.0.to_array()
    }

    /// Lanes where `self < o`.
    #[inline(always)]
    pub fn lt(self, o: Self) -> M4 {
        M4(self.0.lt(o.0))
    }

    /// Lanes where `self != o`.
    #[inline(always)]
    pub fn ne(self, o: Self) -> M4 {
        M4(self.0.ne(o.0))
    }
}

impl Default for I4 {
    fn default() -> Self {
        Self::splat(0)
    }
}

impl PartialEq for I4 {
    fn eq(&self, o: &Self) -> bool {
        self.to_array() == o.to_array()
    }
}

impl fmt::Debug for I4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "I4({:?})", self.to_array())
    }
}

impl M4 {
    /// `v` where the mask says yes, 0 elsewhere. `v` must be finite where the mask says no
    /// (for an infinity or NaN there the result is 0 or NaN, depending on the build).
    #[inline(always)]
    pub fn keep(self, v: F4) -> F4 {
        F4(self.0.keep(v.0))
    }

    /// True when any lane says yes.
    #[inline(always)]
    pub fn any(self) -> bool {
        self.0.any()
    }

    /// The lanes as booleans.
    #[inline(always)]
    pub fn to_array(self) -> [bool; LANES] {
        self.0.to_array()
    }
}

impl fmt::Debug for M4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "M4({:?})", self.to_array())
    }
}

macro_rules! lane_op {
    ($t:ident, $trait:ident, $method:ident) => {
        impl $trait for $t {
            type Output = Self;
            #[inline(always)]
            fn $method(self, o: Self) -> Self {
                Self(self.0.$method(o.0))
            }
        }
    };
}

lane_op!(F4, Add, add);
lane_op!(F4, Sub, sub);
lane_op!(F4, Mul, mul);
lane_op!(F4, Div, div);
lane_op!(I4, Add, add);

impl BitAnd for M4 {
    type Output = Self;
    #[inline(always)]
    fn bitand(self, o: Self) -> Self {
        Self(self.0.and(o.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_compute_like_scalars() {
        let a = F4::new([1.0, -2.0, 3.5, 0.0]);
        let b = F4::new([2.0, -2.0, 1.0, f32::NAN]);
        assert_eq!((a + b).to_array()[..3], [3.0, -4.0, 4.5]);
        assert_eq!((a - b).to_array()[..3], [-1.0, 0.0, 2.5]);
        assert_eq!((a * b).to_array()[..3], [2.0, 4.0, 3.5]);
        assert_eq!((a / F4::splat(2.0)).to_array(), [0.5, -1.0, 1.75, 0.0]);
        assert_eq!(F4::new([4.0, 9.0, 0.0, 2.25]).sqrt().to_array(), [2.0, 3.0, 0.0, 1.5]);
        // Comparisons with NaN say no.
        assert_eq!(a.lt(b).to_array(), [true, false, false, false]);
        assert_eq!(a.le(b).to_array(), [true, true, false, false]);
        assert_eq!(a.gt(b).to_array(), [false, false, true, false]);
        assert_eq!(a.ge(b).to_array(), [false, true, true, false]);
        assert_eq!((a.le(b) & a.ge(b)).to_array(), [false, true, false, false]);
        assert!(!(a.gt(b) & a.lt(b)).any());
        assert_eq!(a.sum(), 2.5);
        // Kept where yes (an infinity too), 0 where no.
        let inf = F4::splat(1.0) / F4::new([0.0, 1.0, 4.0, 2.0]);
        let yes = F4::new([1.0, 0.0, 1.0, 0.0]).gt(F4::splat(0.5));
        assert_eq!(yes.keep(inf).to_array(), [1.0 / 0.0, 0.0, 0.25, 0.0]);
        assert_eq!(a.max(F4::splat(0.5)).to_array(), [1.0, 0.5, 3.5, 0.5]);
    }

    #[test]
    fn integer_lanes_compare() {
        let slots = I4::splat(10) + I4::new([0, 1, 2, 3]);
        assert_eq!(slots.to_array(), [10, 11, 12, 13]);
        let valid = slots.lt(I4::splat(12)) & slots.ne(I4::splat(11));
        assert_eq!(valid.to_array(), [true, false, false, false]);
        assert_eq!((slots.ne(I4::splat(13)) & valid).keep(F4::splat(2.0)).sum(), 2.0);
    }
}
