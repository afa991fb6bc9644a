//! A small 2D vector of `f32`, the only maths type the boids need.

use std::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

/// A 2D vector or point in world units (x to the right, y downwards, as on the grid).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[must_use]
pub struct Vec2 {
    /// Horizontal component.
    pub x: f32,
    /// Vertical component (down is positive).
    pub y: f32,
}

impl Vec2 {
    /// The zero vector.
    pub const ZERO: Self = Self { x: 0.0, y: 0.0 };

    /// Makes a vector.
    #[inline]
    pub const fn new(x: f32, y: f32) -> Self {
        Self { x, y }
    }

    /// The unit vector at `angle` radians from the x axis (towards +y).
    #[inline]
    pub fn from_angle(angle: f32) -> Self {
        let (s, c) = angle.sin_cos();
        Self::new(c, s)
    }

    /// Dot product.
    #[inline]
    pub fn dot(self, o: Self) -> f32 {
        self.x * o.x + self.y * o.y
    }

    /// The z component of the 3D cross product: positive when `o` lies clockwise of `self`
    /// on screen (y down).
    #[inline]
    pub fn cross(self, o: Self) -> f32 {
        self.x * o.y - self.y * o.x
    }

    /// Squared length.
    #[inline]
    pub fn length_sq(self) -> f32 {
        self.dot(self)
    }

    /// Length.
    #[inline]
    pub fn length(self) -> f32 {
        self.length_sq().sqrt()
    }

    /// The vector scaled to length 1, or zero when it is (nearly) zero.
    #[inline]
    pub fn normalized(self) -> Self {
        let l2 = self.length_sq();
        if l2 > 1e-12 {
            self * (1.0 / l2.sqrt())
        } else {
            Self::ZERO
        }
    }

    /// The vector scaled down to at most `max` long (the vehicle model's `truncate`).
    #[inline]
    pub fn truncate(self, max: f32) -> Self {
        let l2 = self.length_sq();
        if l2 > max * max && l2 > 0.0 {
            self * (max / l2.sqrt())
        } else {
            self
        }
    }

    /// The vector with the same direction and length `len` (zero stays zero).
    #[inline]
    pub fn with_length(self, len: f32) -> Self {
        self.normalized() * len
    }

    /// The vector turned a quarter turn: (x, y) -> (-y, x), clockwise on screen.
    #[inline]
    pub fn perp(self) -> Self {
        Self::new(-self.y, self.x)
    }

    /// The vector turned by `angle` radians.
    #[inline]
    pub fn rotated(self, angle: f32) -> Self {
        let (s, c) = angle.sin_cos();
        Self::new(self.x * c - self.y * s, self.x * s + self.y * c)
    }

    /// Distance to another point.
    #[inline]
    pub fn distance(self, o: Self) -> f32 {
        (self - o).length()
    }

    /// True when both components are finite.
    #[inline]
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }
}

impl Add for Vec2 {
    type Output = Self;
    #[inline]
    fn add(self, o: Self) -> Self {
        Self::new(self.x + o.x, self.y + o.y)
    }
}

impl AddAssign for Vec2 {
    #[inline]
    fn add_assign(&mut self, o: Self) {
        self.x += o.x;
        self.y += o.y;
    }
}

impl Sub for Vec2 {
    type Output = Self;
    #[inline]
    fn sub(self, o: Self) -> Self {
        Self::new(self.x - o.x, self.y - o.y)
    }
}

impl SubAssign for Vec2 {
    #[inline]
    fn sub_assign(&mut self, o: Self) {
        self.x -= o.x;
        self.y -= o.y;
    }
}

impl Mul<f32> for Vec2 {
    type Output = Self;
    #[inline]
    fn mul(self, k: f32) -> Self {
        Self::new(self.x * k, self.y * k)
    }
}

impl Div<f32> for Vec2 {
    type Output = Self;
    #[inline]
    fn div(self, k: f32) -> Self {
        Self::new(self.x / k, self.y / k)
    }
}

impl Neg for Vec2 {
    type Output = Self;
    #[inline]
    fn neg(self) -> Self {
        Self::new(-self.x, -self.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncate_keeps_short_vectors_and_shortens_long_ones() {
        assert_eq!(Vec2::new(3.0, 4.0).truncate(10.0), Vec2::new(3.0, 4.0));
        let t = Vec2::new(3.0, 4.0).truncate(1.0);
        assert!((t.length() - 1.0).abs() < 1e-6);
        assert!((t.x - 0.6).abs() < 1e-6);
        assert_eq!(Vec2::ZERO.truncate(0.0), Vec2::ZERO);
    }

    #[test]
    fn normalizing_zero_gives_zero() {
        assert_eq!(Vec2::ZERO.normalized(), Vec2::ZERO);
        assert!((Vec2::new(0.0, -7.0).normalized().y + 1.0).abs() < 1e-7);
    }
}
