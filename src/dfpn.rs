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

/// How the numbers a node must see all of (dn at an OR node, pn at an AND node) are added up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sum {
    /// The plain sum of df-pn.
    Plain,
    /// Weak proof numbers (Ueda et al., 2008): the largest, plus one for each other unsolved
    /// child. In a DAG, the plain sum counts a position shared by several children once per
    /// path; this bound counts it at most once per child.
    Weak,
}

/// Combines the children's (pn, dn): an OR node takes the smallest pn and adds up the dn; an
/// AND node the reverse, adding up as `sum` says.
pub(crate) fn combine(
    is_or: bool,
    sum_by: Sum,
    children: impl Iterator<Item = (u32, u32)>,
) -> Combined {
    let (mut best, mut best_value, mut second) = (0usize, INF, INF);
    let (mut sum, mut infinite) = (0u32, false);
    let (mut largest, mut unsolved) = (0u32, 0u32);
    let mut best_child = (1, 1);
    for (i, (cpn, cdn)) in children.enumerate() {
        let (select, add) = if is_or { (cpn, cdn) } else { (cdn, cpn) };
        infinite |= add == INF;
        sum = sum.saturating_add(add).min(BIG);
        if add != 0 {
            largest = largest.max(add.min(BIG));
            unsolved += 1;
        }
        if select < best_value {
            second = best_value;
            best_value = select;
            best = i;
            best_child = (cpn, cdn);
        } else if select < second {
            second = select;
        }
    }
    if sum_by == Sum::Weak {
        sum = largest.saturating_add(unsolved.saturating_sub(1)).min(BIG);
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

/// The ε of the 1+ε trick (Pawlewicz and Lew), as 1/ε: a best child is searched until its
/// number passes its best sibling's by this part of it, plus one. A quarter by default.
pub(crate) const ONE_OVER_EPSILON: u32 = 4;

/// The thresholds to search the best child with, given the node's own `th_pn` and `th_dn`:
/// the sibling bound grows by `1 / one_over_epsilon` of itself plus one (1+ε), and both stay
/// below [`INF`].
pub(crate) fn child_thresholds(
    is_or: bool,
    th_pn: u32,
    th_dn: u32,
    c: &Combined,
    one_over_epsilon: u32,
) -> (u32, u32) {
    let grow = |v: u32| {
        v.saturating_add(v / one_over_epsilon.max(1))
            .saturating_add(1)
    };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_child_may_pass_its_sibling_by_epsilon() {
        // An OR node whose best child has pn 10 and the next 40: the child is searched until
        // its pn passes 40 by 1/ε of it, plus one; its dn threshold is what the node's leaves.
        let c = combine(true, Sum::Plain, [(40, 3), (10, 5)].into_iter());
        assert_eq!((c.pn, c.dn, c.best), (10, 8, 1));
        assert_eq!(child_thresholds(true, 1000, 20, &c, 4), (51, 17));
        assert_eq!(child_thresholds(true, 1000, 20, &c, 8), (46, 17));
        // The node's own threshold bounds it, and an ε of zero is taken as one.
        assert_eq!(child_thresholds(true, 30, 20, &c, 8), (30, 17));
        assert_eq!(child_thresholds(true, 1000, 20, &c, 0), (81, 17));
        // At an AND node the roles of pn and dn swap.
        let c = combine(false, Sum::Plain, [(3, 40), (5, 10)].into_iter());
        assert_eq!(child_thresholds(false, 20, 1000, &c, 8), (17, 46));
    }

    #[test]
    fn weak_numbers_take_the_largest_plus_the_other_unsolved() {
        // An AND node: pn adds up over the unsolved replies, dn is the smallest.
        let children = [(3, 2), (5, 1), (0, INF), (1, 4)];
        let plain = combine(false, Sum::Plain, children.into_iter());
        assert_eq!((plain.pn, plain.dn, plain.best), (9, 1, 1));
        let weak = combine(false, Sum::Weak, children.into_iter());
        assert_eq!((weak.pn, weak.dn, weak.best), (5 + 2, 1, 1));
        // An OR node: the same for dn.
        let weak = combine(true, Sum::Weak, [(2, 6), (4, 3)].into_iter());
        assert_eq!((weak.pn, weak.dn), (2, 6 + 1));
        // A disproved reply disproves an AND node, and all proved replies prove it.
        let dead = combine(false, Sum::Weak, [(INF, 0), (2, 2)].into_iter());
        assert_eq!((dead.pn, dead.dn), (INF, 0));
        let done = combine(false, Sum::Weak, [(0, INF), (0, INF)].into_iter());
        assert_eq!((done.pn, done.dn), (0, INF));
    }
}
