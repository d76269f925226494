//! The arithmetic df-pn shares between the threat search and the solver: how a node's proof
//! and disproof numbers follow from its children's, and the thresholds its best child is
//! searched with (the 1+ε trick).

/// A proof or disproof number that means "proved" (for the other number).
pub(crate) const INF: u32 = u32::MAX;
/// Finite numbers are capped here, far below [`INF`], so a large but finite number never
/// reaches the root's thresholds.
pub(crate) const BIG: u32 = INF / 4;

/// A node's numbers as its children give them, and its best child.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Combined {
    /// The node's proof number.
    pub(crate) pn: u32,
    /// The node's disproof number.
    pub(crate) dn: u32,
    /// Index of the child to search next.
    pub(crate) best: usize,
    /// That child's (pn, dn).
    best_child: (u32, u32),
    /// The second smallest selecting number (pn at an OR node, dn at an AND node).
    second: u32,
}

/// Combines the children's (pn, dn): an OR node takes the smallest pn and adds up the dn; an
/// AND node the reverse.
pub(crate) fn combine(is_or: bool, children: impl Iterator<Item = (u32, u32)>) -> Combined {
    let (mut best, mut best_value, mut second) = (0usize, INF, INF);
    let (mut sum, mut infinite) = (0u32, false);
    let mut best_child = (1, 1);
    for (i, (cpn, cdn)) in children.enumerate() {
        let (select, add) = if is_or { (cpn, cdn) } else { (cdn, cpn) };
        infinite |= add == INF;
        sum = sum.saturating_add(add).min(BIG);
        if select < best_value {
            second = best_value;
            best_value = select;
            best = i;
            best_child = (cpn, cdn);
        } else if select < second {
            second = select;
        }
    }
    if infinite {
        sum = INF;
    }
    let best_value = if best_value == INF {
        INF
    } else {
        best_value.min(BIG)
    };
    let (pn, dn) = if is_or {
        (best_value, sum)
    } else {
        (sum, best_value)
    };
    Combined {
        pn,
        dn,
        best,
        best_child,
        second,
    }
}

/// The thresholds to search the best child with, given the node's own `th_pn` and `th_dn`:
/// the sibling bound grows by a quarter plus one (1+ε), and both stay below [`INF`].
pub(crate) fn child_thresholds(is_or: bool, th_pn: u32, th_dn: u32, c: &Combined) -> (u32, u32) {
    let grow = |v: u32| v.saturating_add(v / 4).saturating_add(1);
    let (pn, dn) = if is_or {
        (
            th_pn.min(grow(c.second)),
            th_dn.saturating_sub(c.dn).saturating_add(c.best_child.1),
        )
    } else {
        (
            th_pn.saturating_sub(c.pn).saturating_add(c.best_child.0),
            th_dn.min(grow(c.second)),
        )
    };
    (pn.min(INF - 1), dn.min(INF - 1))
}
