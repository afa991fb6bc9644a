//! What Pathlab's `wasm-bindgen` layers share (`pathlab-wasm`, `pathlab-world`,
//! `pathlab-crowd`, `pathlab-spaces`): turning a Rust error into a `JsError`, reading a name or a
//! whole number the page sent, quoting the page's text in a message, the seed limit, and a
//! run's metrics as the objects the pages' metrics tables and plots read ([`metrics_js`]).
//!
//! The checks that a native test wants to read return their complaint as a `String` (a
//! `JsError` can only be made inside a browser); [`err`] turns it into a `JsError` at the
//! boundary. [`search_enums!`] writes the enums the search pages import into the crate that
//! exports them.
//!
//! ```
//! use pathlab_bind::{quote, whole, seed};
//! assert_eq!(whole("agents", 12.0, 100.0), Ok(12));
//! assert_eq!(whole("agents", 1.5, 100.0).unwrap_err(), "agents must be a whole number from 0 to 100, got 1.5");
//! assert!(seed(-1.0).is_err());
//! assert_eq!(quote("flock"), "\"flock\"");
//! ```

use std::fmt::Display;
use std::str::FromStr;

use pathlab_core::crowd::scene::Metric;
use serde::Serialize;
use wasm_bindgen::{JsError, JsValue};

mod search;

/// The largest seed the pages accept: seeds are 32-bit on the page.
pub const MAX_SEED: u32 = u32::MAX;

/// A `JsError` whose message is `e`'s.
pub fn err(e: impl Display) -> JsError {
    JsError::new(&e.to_string())
}

/// Reads a name the page sent (an algorithm, a heuristic, a layout, ...); the message of a
/// refusal is the type's own.
pub fn parse<T: FromStr>(name: &str) -> Result<T, JsError>
where
    T::Err: Display,
{
    name.parse::<T>().map_err(err)
}

/// True when a JS number is a whole number from 0 to `max`: finite, integral, in range.
///
/// ```
/// use pathlab_bind::is_whole;
/// assert!(is_whole(3.0, 3.0) && is_whole(0.0, 3.0));
/// assert!(!is_whole(-1.0, 3.0) && !is_whole(2.5, 3.0) && !is_whole(f64::NAN, 3.0) && !is_whole(4.0, 3.0));
/// ```
pub fn is_whole(value: f64, max: f64) -> bool {
    value.is_finite() && value.fract() == 0.0 && (0.0..=max).contains(&value)
}

/// A whole number from 0 to `max` given as a JS number, or a message naming `what` and the
/// range.
pub fn whole(what: &str, value: f64, max: f64) -> Result<u64, String> {
    if is_whole(value, max) {
        Ok(value as u64)
    } else {
        Err(format!("{what} must be a whole number from 0 to {max}, got {value}"))
    }
}

/// A seed given as a JS number: a whole number from 0 to [`MAX_SEED`].
pub fn seed(value: f64) -> Result<u64, String> {
    whole("seed", value, f64::from(MAX_SEED))
}

/// The page's text for a message: its first 40 characters, quoted and escaped, so a long or
/// odd name cannot swamp or break the message.
///
/// ```
/// use pathlab_bind::quote;
/// assert_eq!(quote("a\"b"), r#""a\"b""#);
/// assert_eq!(quote(&"x".repeat(100)).len(), 42);
/// ```
pub fn quote(text: &str) -> String {
    let short: String = text.chars().take(40).collect();
    format!("{short:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_are_refused_outside_their_range_with_the_range_named() {
        assert_eq!(whole("n", 0.0, 5.0), Ok(0));
        assert_eq!(whole("n", 5.0, 5.0), Ok(5));
        for bad in [-1.0, 5.5, 6.0, f64::INFINITY, f64::NAN] {
            let message = whole("n", bad, 5.0).unwrap_err();
            assert!(message.starts_with("n must be a whole number from 0 to 5, got"), "{message}");
        }
    }

    #[test]
    fn seeds_run_from_0_to_the_largest_u32() {
        assert_eq!(seed(f64::from(u32::MAX)), Ok(u64::from(u32::MAX)));
        assert_eq!(seed(0.0), Ok(0));
        let message = seed(1e12).unwrap_err();
        assert_eq!(message, "seed must be a whole number from 0 to 4294967295, got 1000000000000");
    }
}

#[derive(Serialize)]
struct MetricOut {
    name: &'static str,
    label: &'static str,
    /// None (null) when not measured yet (NaN) or infinite.
    value: Option<f64>,
    unit: &'static str,
}

/// Metrics as JS objects `[{ name, label, value, unit }]`, a value that is not finite as null:
/// what the crowd and boid pages' metrics tables and plots read.
pub fn metrics_js(metrics: Vec<Metric>) -> Result<JsValue, JsError> {
    let out: Vec<MetricOut> = metrics
        .into_iter()
        .map(|m| MetricOut {
            name: m.name,
            label: m.label,
            value: m.value.is_finite().then_some(m.value),
            unit: m.unit,
        })
        .collect();
    serde_wasm_bindgen::to_value(&out).map_err(err)
}
