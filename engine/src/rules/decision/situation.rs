//! The declaration of table events' contexts.

/// The most voluntary actions a hand's facts list (see [`situations!`]).
pub const MAX_ACTIONS: usize = 256;

/// Declares the typed contexts of table events, one struct per point, and the area's
/// [`Signature`](super::Signature)s in order.
///
/// Every fact is optional: a caller gives the facts it knows, and a script reads a missing
/// one as `()` (each ruleset's script says how it takes a missing fact). Every context also
/// carries what a dealt hand knows — `street`, `board`, `actions` — which the engine adds to
/// a situation at a table where cards were dealt. The samples are the empty context, each
/// fact alone at each of its boundary values, and every fact at once at its smallest and at
/// its largest: one fact at a time keeps their number linear in the facts, and the two
/// extremes try every fact together.
macro_rules! situations {
    ($(
        $(#[$doc:meta])*
        $name:ident for $point:literal -> $answer:ident {
            $( $(#[$fdoc:meta])* $field:ident : $ty:ty ),* $(,)?
        }
    )*) => {
        $(
            $(#[$doc])*
            #[derive(
                Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize,
                schemars::JsonSchema,
            )]
            #[serde(deny_unknown_fields)]
            pub struct $name {
                $(
                    $(#[$fdoc])*
                    #[serde(default, skip_serializing_if = "Option::is_none")]
                    pub $field: Option<$ty>,
                )*
                /// The betting round, at a table where cards were dealt.
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub street: Option<$crate::rules::decision::values::Street>,
                /// Cards on the board, at a table where cards were dealt.
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub board: Option<$crate::rules::decision::values::BoardCards>,
                /// The voluntary actions of the hand so far, at a table where cards were dealt.
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub actions: Option<
                    $crate::rules::decision::values::List<
                        $crate::rules::decision::values::ActionWord,
                        { $crate::rules::decision::situation::MAX_ACTIONS },
                    >,
                >,
            }

            impl $crate::rules::decision::Context for $name {
                fn samples() -> Vec<Self> {
                    use $crate::rules::decision::values::{
                        ActionWord, BoardCards, Boundary, List, Street,
                    };
                    use $crate::rules::decision::situation::MAX_ACTIONS;
                    type Actions = List<ActionWord, MAX_ACTIONS>;
                    let mut out = vec![Self::default()];
                    $(
                        for v in <$ty as Boundary>::boundary() {
                            out.push(Self { $field: Some(v), ..Self::default() });
                        }
                    )*
                    for v in Street::boundary() {
                        out.push(Self { street: Some(v), ..Self::default() });
                    }
                    for v in BoardCards::boundary() {
                        out.push(Self { board: Some(v), ..Self::default() });
                    }
                    for v in Actions::boundary() {
                        out.push(Self { actions: Some(v), ..Self::default() });
                    }
                    out.push(Self {
                        $( $field: <$ty as Boundary>::boundary().first().cloned(), )*
                        street: Street::boundary().first().cloned(),
                        board: BoardCards::boundary().first().cloned(),
                        actions: Actions::boundary().first().cloned(),
                    });
                    out.push(Self {
                        $( $field: <$ty as Boundary>::boundary().last().cloned(), )*
                        street: Street::boundary().last().cloned(),
                        board: BoardCards::boundary().last().cloned(),
                        actions: Actions::boundary().last().cloned(),
                    });
                    out
                }
            }
        )*

        /// This area's signatures, in catalogue order.
        pub(super) const SIGNATURES: &[$crate::rules::decision::Signature] = &[$(
            $crate::rules::decision::event::<$name, $crate::rules::decision::answers::$answer>(
                $point,
                stringify!($name),
                stringify!($answer),
            ),
        )*];
    };
}
pub(crate) use situations;
