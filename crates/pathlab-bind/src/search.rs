//! The search's enums as the pages import them from a wasm module: the path-finding module
//! (`pathlab_wasm`) and the spaces module (`pathlab_spaces`) both export them, so the page's
//! JavaScript names states, terrain and statuses (`CellState.Current`, `Terrain.Wall`) instead
//! of copying their numbers.
//!
//! They are written once here, as a macro each of those crates expands, rather than as types
//! of this crate: every `#[wasm_bindgen]` item of a linked crate is exported by the module, so
//! types defined here would be exported by the boid and crowd modules too.

/// Defines `CellState`, `Status` (with conversions from and to the core's `Status`), `Terrain`
/// and `status_name` (exported as `statusName`) in the calling crate, with a test that their
/// values match the core's. The caller depends on `pathlab-core` and `wasm-bindgen`.
#[macro_export]
macro_rules! search_enums {
    () => {
        /// What the page paints for a cell or node: the values of the state bytes a search keeps
        /// (the core's `CellState`).
        #[wasm_bindgen::prelude::wasm_bindgen]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        pub enum CellState {
            /// Not reached yet.
            Unseen = 0,
            /// On the open list.
            Open = 1,
            /// Expanded.
            Closed = 2,
            /// Expanded by the last step.
            Current = 3,
            /// On the path found.
            Path = 4,
            /// On the backward frontier's open list (bidirectional search).
            OpenBack = 5,
            /// Expanded by the backward frontier (bidirectional search).
            ClosedBack = 6,
        }

        /// Where a search stands; [`status_name`] gives the word the page shows.
        #[wasm_bindgen::prelude::wasm_bindgen]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        pub enum Status {
            /// No step taken.
            Ready = 0,
            /// Stepping.
            Searching = 1,
            /// A path was found.
            Found = 2,
            /// There is no path.
            NoPath = 3,
        }

        /// Cell values of a grid: 0 is a wall, 1 ground, more is terrain (any value from 2 costs that
        /// many moves; the page's brushes paint these).
        #[wasm_bindgen::prelude::wasm_bindgen]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        pub enum Terrain {
            /// Blocks movement.
            Wall = 0,
            /// Costs one move.
            Ground = 1,
            /// Costs three moves.
            Mud = 3,
            /// Costs five moves.
            Water = 5,
        }

        impl From<pathlab_core::search::Status> for Status {
            fn from(s: pathlab_core::search::Status) -> Self {
                match s {
                    pathlab_core::search::Status::Ready => Self::Ready,
                    pathlab_core::search::Status::Searching => Self::Searching,
                    pathlab_core::search::Status::Found => Self::Found,
                    pathlab_core::search::Status::NoPath => Self::NoPath,
                }
            }
        }

        impl From<Status> for pathlab_core::search::Status {
            fn from(s: Status) -> Self {
                match s {
                    Status::Ready => Self::Ready,
                    Status::Searching => Self::Searching,
                    Status::Found => Self::Found,
                    Status::NoPath => Self::NoPath,
                }
            }
        }

        /// The words for each status, as the page shows them (`ready`, `searching`, `found`, `no-path`).
        #[wasm_bindgen::prelude::wasm_bindgen(js_name = statusName)]
        pub fn status_name(status: Status) -> String {
            pathlab_core::search::Status::from(status).name().to_string()
        }

        #[cfg(test)]
        mod search_enums_match_the_core {
            use super::*;

            #[test]
            fn exported_enums_match_the_core_values() {
                use super::CellState as S;
                let ours = [S::Unseen, S::Open, S::Closed, S::Current, S::Path, S::OpenBack, S::ClosedBack];
                let core = pathlab_core::search::CellState::ALL;
                assert_eq!(ours.map(|s| s as u8).as_slice(), core.iter().map(|c| *c as u8).collect::<Vec<_>>());
                for s in pathlab_core::search::Status::ALL {
                    assert_eq!(Status::from(*s) as u8, *s as u8);
                    assert_eq!(pathlab_core::search::Status::from(Status::from(*s)), *s);
                }
                assert_eq!(Terrain::Wall as u8, pathlab_core::grid::WALL);
                assert_eq!(Terrain::Ground as u8, pathlab_core::grid::GROUND);
            }

            #[test]
            fn status_names_are_the_words_the_page_shows() {
                let names: Vec<_> = [Status::Ready, Status::Searching, Status::Found, Status::NoPath]
                    .into_iter()
                    .map(status_name)
                    .collect();
                assert_eq!(names, ["ready", "searching", "found", "no-path"]);
            }
        }
    };
}
