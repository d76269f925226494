//! Adding proofs to a database: each position of the proof is replayed with the rules core,
//! keyed by its canonical form, and stored once in its canonical orientation. A position the
//! database already holds is shared rather than stored again, whichever proof it came from;
//! except inside a certificate proof, which is stored as found (see [`Builder::insert`]).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::settled::Settled;
use super::{
    Cell, Certificate, Database, DbError, Edge, Index, Node, PositionKey, Root, Visit, cell_of,
    describe, position_name, walk,
};
use crate::proof::{self, Proof, ProofNode};
use crate::rules::{Board, Color, Point, Rule, Rules, Size, Symmetry};

/// What adding a root did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Added {
    /// A position not stored before.
    New,
    /// The position was stored with a larger proof, which the new one replaces.
    Replaced,
    /// The position was stored with a proof no larger; the database is unchanged.
    Kept,
}

/// One step of a proof being added, its moves in the orientation of the walk's board.
enum Step<I> {
    Five,
    Vcf(Vec<Point>),
    Move(Point, I),
    Replies(Option<StepCertificate<I>>, Vec<(Point, I)>),
}

impl<I> Step<I> {
    /// The same step with its node ids mapped by `f`.
    fn map<J>(self, f: impl Fn(I) -> J) -> Step<J> {
        match self {
            Step::Five => Step::Five,
            Step::Vcf(line) => Step::Vcf(line),
            Step::Move(p, id) => Step::Move(p, f(id)),
            Step::Replies(certificate, replies) => Step::Replies(
                certificate.map(|c| match c {
                    StepCertificate::Line(line) => StepCertificate::Line(line),
                    StepCertificate::Proof(id) => StepCertificate::Proof(f(id)),
                }),
                replies.into_iter().map(|(r, id)| (r, f(id))).collect(),
            ),
        }
    }
}

/// A defender node's certificate in a [`Step`]: a stored line, or the pass position's node.
enum StepCertificate<I> {
    Line(Vec<Point>),
    Proof(I),
}

/// A proof to add: a [`Proof`] or a root of another database.
trait Source {
    type Id: Copy + Eq + std::hash::Hash;
    /// The node `id`, whose position is on `board` (left as found).
    fn step(&self, id: Self::Id, board: &mut Board) -> Result<Step<Self::Id>, DbError>;
}

fn parse(s: &str, size: Size) -> Result<Point, DbError> {
    s.parse::<Point>()
        .ok()
        .filter(|&p| size.contains(p))
        .ok_or_else(|| DbError::Proof(format!("`{s}` is not a point of the {size} board")))
}

struct ProofSource<'a>(&'a Proof, Size);

impl ProofSource<'_> {
    /// A proof line (attacker and defender alternating) as stored: the attacker's moves,
    /// without the final five (the checker plays the five itself when the line runs out).
    fn stored_line(&self, line: &[String], board: &mut Board) -> Result<Vec<Point>, DbError> {
        let moves: Vec<Point> = line
            .iter()
            .map(|s| parse(s, self.1))
            .collect::<Result<_, _>>()?;
        Ok(stored_line(&moves, board))
    }
}

/// A line of moves (attacker and defender alternating, the side to move on `board` first) as
/// stored: the attacker's moves, without the final five.
fn stored_line(moves: &[Point], board: &mut Board) -> Vec<Point> {
    let mut attacker: Vec<Point> = moves.iter().step_by(2).copied().collect();
    if moves.len() % 2 == 1 {
        let mut played = 0;
        for &m in &moves[..moves.len() - 1] {
            if !board.is_empty(m) {
                break;
            }
            board.play_unchecked(m);
            played += 1;
        }
        let last = moves[moves.len() - 1];
        let who = board.to_move();
        if played == moves.len() - 1 && board.is_empty(last) && board.makes_five(last, who) {
            attacker.pop();
        }
        for _ in 0..played {
            board.undo();
        }
    }
    attacker
}

impl Source for ProofSource<'_> {
    type Id = usize;

    fn step(&self, id: usize, board: &mut Board) -> Result<Step<usize>, DbError> {
        let node = self
            .0
            .nodes
            .get(id)
            .ok_or_else(|| DbError::Proof(format!("node {id} is missing")))?;
        Ok(match node {
            ProofNode::Five => Step::Five,
            ProofNode::Vcf { line } => Step::Vcf(self.stored_line(line, board)?),
            ProofNode::Move { play, child } => Step::Move(parse(play, self.1)?, *child),
            ProofNode::Replies {
                certificate,
                replies,
            } => {
                // The certificate is played as if the defender had passed.
                let certificate = match certificate {
                    Some(proof::Certificate::Line(line)) => {
                        board.set_to_move(board.to_move().opponent());
                        let stored = self.stored_line(line, board);
                        board.set_to_move(board.to_move().opponent());
                        Some(StepCertificate::Line(stored?))
                    }
                    Some(proof::Certificate::Proof(pass)) => Some(StepCertificate::Proof(*pass)),
                    None => None,
                };
                Step::Replies(
                    certificate,
                    replies
                        .iter()
                        .map(|(r, c)| parse(r, self.1).map(|p| (p, *c)))
                        .collect::<Result<_, _>>()?,
                )
            }
        })
    }
}

/// A node of another database, with the symmetry from its stored orientation to the walk's.
struct DbSource<'a>(&'a Database);

impl Source for DbSource<'_> {
    type Id = (u32, Symmetry);

    fn step(
        &self,
        (n, frame): (u32, Symmetry),
        _: &mut Board,
    ) -> Result<Step<(u32, Symmetry)>, DbError> {
        let db = self.0;
        let node = db
            .nodes
            .get(n as usize)
            .ok_or_else(|| DbError::Proof(format!("node {n} is missing")))?;
        let point = |c: Cell| {
            db.point(c)
                .map(|p| frame.apply(p, db.size))
                .ok_or_else(|| DbError::Proof(format!("node {n}: point {c} is off the board")))
        };
        let line = |cells: &[Cell]| -> Result<Vec<Point>, DbError> {
            cells.iter().map(|&c| point(c)).collect()
        };
        let edge = |e: Edge| (e.node, frame.after(e.symmetry));
        Ok(match node {
            Node::Five => Step::Five,
            Node::Vcf(cells) => Step::Vcf(line(cells)?),
            Node::Move { play, child } => Step::Move(point(*play)?, edge(*child)),
            Node::Replies {
                certificate,
                replies,
            } => Step::Replies(
                match certificate {
                    Some(Certificate::Line(cells)) => Some(StepCertificate::Line(line(cells)?)),
                    Some(Certificate::Proof(e)) => Some(StepCertificate::Proof(edge(*e))),
                    None => None,
                },
                replies
                    .iter()
                    .map(|&(r, e)| point(r).map(|p| (p, edge(e))))
                    .collect::<Result<_, _>>()?,
            ),
        })
    }
}

/// A position proved from its children, which the database already holds: the
/// [`Combined`] step at the top, every child looked up rather than read, and the nodes of a
/// certificate proof read from that proof.
struct CombinedSource(Combined);

/// A node of a [`CombinedSource`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum CombinedId {
    /// The combined step itself.
    Top,
    /// A child, which must be in the database already.
    Stored,
    /// Node `i` of the step's certificate proof.
    Pass(usize),
}

/// How a position follows from children the database already holds, for
/// [`Builder::add_combined`]; moves in the orientation of the board given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Combined {
    /// The side to move wins by this move.
    Move(Point),
    /// The side to move loses: every listed reply is stored as lost for it, and with a
    /// certificate every other reply loses to that.
    Replies {
        /// What answers every reply not listed, or `None` when the replies are every legal one.
        certificate: Option<PassCertificate>,
        /// The replies, each stored.
        replies: Vec<Point>,
    },
}

/// What answers the replies a [`Combined::Replies`] step does not list: the winner's win were
/// the side to move to pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PassCertificate {
    /// The winner's VCF: the winner's moves and the forced replies alternating, ending in its
    /// five.
    Line(Vec<Point>),
    /// A proof of the winner's win on the same stones with the winner to move (a VCT tree).
    /// It is stored as found, sharing no node with the proofs stored before (see
    /// [`Builder::insert`]).
    Proof(Arc<Proof>),
}

impl Source for CombinedSource {
    type Id = CombinedId;

    fn step(&self, id: CombinedId, board: &mut Board) -> Result<Step<CombinedId>, DbError> {
        match id {
            CombinedId::Top => {}
            CombinedId::Stored => {
                return Err(DbError::Proof(format!(
                    "the position after `{}` is not in the database",
                    crate::notation::format_moves(board)
                )));
            }
            CombinedId::Pass(i) => {
                let Combined::Replies {
                    certificate: Some(PassCertificate::Proof(proof)),
                    ..
                } = &self.0
                else {
                    return Err(DbError::Proof("a certificate node without a proof".into()));
                };
                let step = ProofSource(proof, board.size()).step(i, board)?;
                return Ok(step.map(CombinedId::Pass));
            }
        }
        Ok(match &self.0 {
            Combined::Move(p) => Step::Move(*p, CombinedId::Stored),
            Combined::Replies {
                certificate,
                replies,
            } => {
                let certificate = certificate.as_ref().map(|c| match c {
                    PassCertificate::Line(line) => {
                        board.set_to_move(board.to_move().opponent());
                        let stored = stored_line(line, board);
                        board.set_to_move(board.to_move().opponent());
                        StepCertificate::Line(stored)
                    }
                    PassCertificate::Proof(proof) => {
                        StepCertificate::Proof(CombinedId::Pass(proof.root))
                    }
                });
                Step::Replies(
                    certificate,
                    replies.iter().map(|&r| (r, CombinedId::Stored)).collect(),
                )
            }
        })
    }
}

/// A database being extended.
pub struct Builder {
    db: Database,
    /// Canonical key to node and the symmetry from the node's stored orientation onto the
    /// canonical image, for every position added or read.
    index: HashMap<PositionKey, (u32, Symmetry)>,
    /// Canonical key to root.
    roots: HashMap<PositionKey, usize>,
}

impl Builder {
    /// A builder for an empty database.
    #[must_use]
    pub fn new(rules: Rules, size: Size) -> Builder {
        Builder {
            db: Database::new(rules, size),
            index: HashMap::new(),
            roots: HashMap::new(),
        }
    }

    /// A builder that extends `db`.
    #[must_use]
    pub fn extend(db: Database) -> Builder {
        let index = Index::build(&db).nodes;
        let mut roots = HashMap::new();
        for (i, root) in db.roots.iter().enumerate() {
            if let Ok(board) = db.root_board(root) {
                roots.entry(PositionKey::of(&board).0).or_insert(i);
            }
        }
        Builder { db, index, roots }
    }

    /// The database so far.
    #[must_use]
    pub fn database(&self) -> &Database {
        &self.db
    }

    /// Every position stored so far, with the side that wins it and its proof: a snapshot a
    /// search can consult while the database grows (a copy of the database as it is).
    #[must_use]
    pub fn settled(&self) -> Settled {
        Settled {
            db: Arc::new(self.db.clone()),
            index: Index {
                nodes: self.index.clone(),
            },
        }
    }

    /// [`Builder::settled`] for a database that grows no more: no copy.
    #[must_use]
    pub fn into_settled(self) -> Settled {
        Settled {
            db: Arc::new(self.db),
            index: Index { nodes: self.index },
        }
    }

    fn check_rules(&self, rules: Rules, size: Size, what: &'static str) -> Result<(), DbError> {
        if rules == self.db.rules && size == self.db.size {
            Ok(())
        } else {
            Err(DbError::Mismatch {
                db: self.db.describe(),
                what,
                other: describe(rules, size),
            })
        }
    }

    /// Adds a proof from `solve`.
    ///
    /// # Errors
    /// [`DbError::Mismatch`] for another rule set or size, [`DbError::Contradiction`] if a
    /// stored position has the opposite result, [`DbError::Proof`] for a proof that cannot be
    /// replayed.
    pub fn add_proof(&mut self, proof: &Proof) -> Result<Added, DbError> {
        let (rules, size) = proof_rules(proof)?;
        self.check_rules(rules, size, "proof")?;
        let mut board = Board::new(size, rules);
        for (stones, color) in [(&proof.black, Color::Black), (&proof.white, Color::White)] {
            for s in stones {
                board
                    .put(parse(s, size)?, color)
                    .map_err(|e| DbError::Proof(e.to_string()))?;
            }
        }
        board.set_to_move(proof.to_move);
        let source = ProofSource(proof, size);
        let size_of = count_proof(proof);
        self.add_root(
            &source,
            proof.root,
            board,
            Symmetry::Identity,
            proof.attacker,
            size_of,
        )
    }

    /// Adds `board`'s position as a root won by `winner`, by a [`Combined`] step whose
    /// children the database already holds (a book proves positions this way, from the top
    /// down to positions `solve` proved).
    ///
    /// # Errors
    /// [`DbError::Proof`] if a child is not stored or a move is on a stone,
    /// [`DbError::Contradiction`] if a stored position has the opposite result.
    pub fn add_combined(
        &mut self,
        board: &Board,
        winner: Color,
        step: Combined,
    ) -> Result<Added, DbError> {
        self.check_rules(board.rules(), board.size(), "position")?;
        self.add_root(
            &CombinedSource(step),
            CombinedId::Top,
            board.clone(),
            Symmetry::Identity,
            winner,
            usize::MAX,
        )
    }

    /// The side a stored position (a root, or any position inside a stored proof, in any
    /// symmetric form) is proved won for.
    #[must_use]
    pub fn stored_winner(&self, board: &Board) -> Option<Color> {
        let &(n, _) = self.index.get(&PositionKey::of(board).0)?;
        self.winner_at(n, board)
    }

    /// The side node `n`, holding `board`'s position, is proved won for; a stored five is won
    /// by the side that made it.
    fn winner_at(&self, n: u32, board: &Board) -> Option<Color> {
        self.db.nodes[n as usize]
            .winner(board.to_move())
            .or_else(|| board.fives().first().map(|f| f.color))
    }

    /// Adds every root of another database.
    ///
    /// # Errors
    /// As [`Builder::add_proof`].
    pub fn add_database(&mut self, other: &Database) -> Result<Vec<Added>, DbError> {
        self.check_rules(other.rules, other.size, "input")?;
        let source = DbSource(other);
        other
            .roots
            .iter()
            .map(|root| {
                let board = other.root_board(root).map_err(DbError::Proof)?;
                self.add_root(
                    &source,
                    (root.node, Symmetry::Identity),
                    board,
                    root.symmetry,
                    root.attacker,
                    other.reachable(root.node),
                )
            })
            .collect()
    }

    /// Adds the proof of `board`'s position; `submitted` maps the orientation the user gave
    /// onto `board`'s.
    fn add_root<S: Source>(
        &mut self,
        source: &S,
        id: S::Id,
        mut board: Board,
        submitted: Symmetry,
        attacker: Color,
        size_of: usize,
    ) -> Result<Added, DbError> {
        let (key, _) = PositionKey::of(&board);
        let existing = self.roots.get(&key).copied();
        let added = match existing {
            Some(r) => {
                let old = &self.db.roots[r];
                if old.attacker != attacker {
                    return Err(self.contradiction(&board, attacker, old.attacker));
                }
                if self.db.reachable(old.node) <= size_of {
                    return Ok(Added::Kept);
                }
                // A stored proof that another proof leads into stays in the database whatever
                // the root says: replacing the root would store the position twice. (A scan of
                // every node, but only for the rare proof that would replace one.)
                let old_node = old.node;
                if self
                    .db
                    .nodes
                    .iter()
                    .any(|n| n.children().any(|e| e.node == old_node))
                {
                    return Ok(Added::Kept);
                }
                // Add the smaller proof's root afresh; shared inner positions stay shared.
                self.index.remove(&key);
                Added::Replaced
            }
            None => Added::New,
        };
        let mut found = Copies::new();
        let (node, symmetry) = self.insert(source, id, &mut board, attacker, &mut found)?;
        let stones = |c: Color| {
            let mut v: Vec<Cell> = board
                .stones()
                .filter(|&(_, s)| s == c)
                .map(|(p, _)| self.db.cell(symmetry.apply(p, self.db.size)))
                .collect();
            v.sort_unstable();
            v
        };
        let root = Root {
            black: stones(Color::Black),
            white: stones(Color::White),
            to_move: board.to_move(),
            attacker,
            node,
            symmetry: symmetry.after(submitted),
        };
        match existing {
            Some(r) => self.db.roots[r] = root,
            None => {
                self.roots.insert(key, self.db.roots.len());
                self.db.roots.push(root);
            }
        }
        Ok(added)
    }

    /// The error for a position stored as won by `stored` and now claimed for `claimed`.
    fn contradiction(&self, board: &Board, claimed: Color, stored: Color) -> DbError {
        let (key, _) = PositionKey::of(board);
        let first = self
            .find(key)
            .unwrap_or_else(|| "a stored position".to_string());
        let moves: Vec<Point> = board.moves().to_vec();
        let stones = |c: Color| -> Vec<Point> {
            let mut v: Vec<Point> = board
                .stones()
                .filter(|&(p, s)| s == c && !moves.contains(&p))
                .map(|(p, _)| p)
                .collect();
            v.sort_unstable();
            v
        };
        DbError::Contradiction {
            first,
            first_claim: format!("{stored} wins"),
            second: position_name(&stones(Color::Black), &stones(Color::White), &moves),
            second_claim: format!("{claimed} wins"),
        }
    }

    /// A name for the stored position with canonical `key`, found by walking the roots.
    fn find(&self, key: PositionKey) -> Option<String> {
        let db = &self.db;
        let mut seen = HashSet::new();
        for root in &db.roots {
            let mut path = Vec::new();
            let found = walk(db, root, &mut |board, _, _| {
                if PositionKey::of(board).0 == key {
                    path = board.moves().to_vec();
                    Visit::Stop
                } else if seen.insert(board.hash()) {
                    Visit::Descend
                } else {
                    Visit::Skip
                }
            });
            if found {
                let (black, white) = super::submitted_stones(db, root);
                let back = root.symmetry.inverse();
                let path: Vec<Point> = path.iter().map(|&p| back.apply(p, db.size)).collect();
                return Some(position_name(&black, &white, &path));
            }
        }
        None
    }

    /// Stores the position on `board` and everything below it; returns its node and the
    /// symmetry that maps `board` onto the node's stored orientation. A new node is stored in
    /// `board`'s orientation, so the edges of one proof carry the identity, except to a
    /// position stored before in another orientation.
    ///
    /// Below a certificate proof (the pass position's node and all under it) nothing is shared
    /// with the positions stored before: the checker replays a certificate with the defender's
    /// replies on the board, and the solver left out of the list only the replies after which
    /// *this* proof still wins. Another proof of the same position (or of a symmetric image)
    /// proves that position, but need not stand the same replays. Those nodes are stored as
    /// found, shared only where the certificate itself reaches one of its nodes again on the
    /// same board (`found`, keyed by the source's node and the position's Zobrist key).
    fn insert<S: Source>(
        &mut self,
        source: &S,
        id: S::Id,
        board: &mut Board,
        attacker: Color,
        found: &mut Copies<S::Id>,
    ) -> Result<(u32, Symmetry), DbError> {
        let (key, to_canonical) = PositionKey::of(board);
        let exact = found.inside;
        if exact && let Some(&n) = found.nodes.get(&(id, board.hash())) {
            return Ok((n, Symmetry::Identity));
        }
        if let Some(&(n, stored_frame)) = self.index.get(&key) {
            if let Some(stored) = self.winner_at(n, board)
                && stored != attacker
            {
                return Err(self.contradiction(board, attacker, stored));
            }
            if !exact {
                return Ok((n, stored_frame.inverse().after(to_canonical)));
            }
        }
        let size = self.db.size;
        let cell = move |p: Point| cell_of(size, p);
        let child =
            |this: &mut Self, p: Point, id: S::Id, board: &mut Board, found: &mut Copies<S::Id>| {
                if !board.is_empty(p) {
                    return Err(DbError::Proof(format!(
                        "move {p} is on a stone after `{}`",
                        crate::notation::format_moves(board)
                    )));
                }
                board.play_unchecked(p);
                let result = this.insert(source, id, board, attacker, found);
                board.undo();
                let (n, child_frame) = result?;
                Ok(Edge {
                    node: n,
                    symmetry: child_frame.inverse(),
                })
            };
        let step = source.step(id, board)?;
        // A move or a VCF with the defender to move, or replies with the attacker to move, is
        // no proof; refusing them also means every cycle of a proof plays a stone, so a
        // damaged proof cannot send this walk round a cycle for ever.
        let attacker_to_move = board.to_move() == attacker;
        let misplaced = match &step {
            Step::Five => false,
            Step::Vcf(_) | Step::Move(..) => !attacker_to_move,
            Step::Replies(..) => attacker_to_move,
        };
        if misplaced {
            return Err(DbError::Proof(format!(
                "a node for the {} to move has {} to move after `{}`",
                if attacker_to_move {
                    "defender"
                } else {
                    "attacker"
                },
                board.to_move(),
                crate::notation::format_moves(board)
            )));
        }
        let node = match step {
            Step::Five => Node::Five,
            Step::Vcf(line) => Node::Vcf(line.into_iter().map(cell).collect()),
            Step::Move(p, id) => Node::Move {
                play: cell(p),
                child: child(self, p, id, board, found)?,
            },
            Step::Replies(certificate, replies) => {
                let certificate = match certificate {
                    Some(StepCertificate::Line(line)) => {
                        Some(Certificate::Line(line.into_iter().map(cell).collect()))
                    }
                    Some(StepCertificate::Proof(id)) => {
                        // The pass position: the same stones, the attacker to move.
                        let to_move = board.to_move();
                        board.set_to_move(to_move.opponent());
                        let was_inside = std::mem::replace(&mut found.inside, true);
                        let result = self.insert(source, id, board, attacker, found);
                        found.inside = was_inside;
                        board.set_to_move(to_move);
                        let (n, child_frame) = result?;
                        Some(Certificate::Proof(Edge {
                            node: n,
                            symmetry: child_frame.inverse(),
                        }))
                    }
                    None => None,
                };
                let mut listed = Vec::with_capacity(replies.len());
                for (r, id) in replies {
                    listed.push((cell(r), child(self, r, id, board, found)?));
                }
                Node::Replies {
                    certificate,
                    replies: listed,
                }
            }
        };
        let n = u32::try_from(self.db.nodes.len())
            .map_err(|_| DbError::TooLarge("more than 2^32 nodes".to_string()))?;
        self.db.nodes.push(node);
        if exact {
            found.nodes.insert((id, board.hash()), n);
            self.index.entry(key).or_insert((n, to_canonical));
        } else {
            self.index.insert(key, (n, to_canonical));
        }
        Ok((n, Symmetry::Identity))
    }

    /// The database built: only the nodes some root reaches, in the order the file keeps
    /// them (each proof depth-first from its root).
    #[must_use]
    pub fn finish(self) -> Database {
        self.db.compacted()
    }
}
/// What [`Builder::insert`] carries down one proof: whether it is inside a certificate proof,
/// and the nodes stored there so far, by the source's node and the position's Zobrist key.
struct Copies<I> {
    inside: bool,
    nodes: HashMap<(I, u64), u32>,
}

impl<I> Copies<I> {
    fn new() -> Self {
        Copies {
            inside: false,
            nodes: HashMap::new(),
        }
    }
}

/// The rule set and board size a proof is for.
///
/// # Errors
/// [`DbError::Proof`] naming a field that does not parse.
pub fn proof_rules(proof: &Proof) -> Result<(Rules, Size), DbError> {
    rules_named(&proof.rule, proof.k, &proof.size).map_err(DbError::Proof)
}

/// The rule set and board size from their names in a file: the rule (`renju`, ...), the win
/// length (used by the rules that have one) and the size (`15`, `COLSxROWS`).
///
/// # Errors
/// A message naming the field that does not parse.
pub fn rules_named(rule: &str, k: u32, size: &str) -> Result<(Rules, Size), String> {
    let parsed: Rule = rule.parse().map_err(|_| format!("unknown rule `{rule}`"))?;
    let k = parsed.has_variable_k().then_some(k);
    let rules = Rules::new(parsed, k).map_err(|e| e.to_string())?;
    let size: Size = size
        .parse()
        .map_err(|_| format!("bad board size `{size}`"))?;
    Ok((rules, size))
}

/// The number of proof nodes reachable from the root.
fn count_proof(proof: &Proof) -> usize {
    let mut seen = vec![false; proof.nodes.len()];
    let mut stack = vec![proof.root];
    let mut count = 0;
    while let Some(n) = stack.pop() {
        if n >= proof.nodes.len() || seen[n] {
            continue;
        }
        seen[n] = true;
        count += 1;
        match &proof.nodes[n] {
            ProofNode::Move { child, .. } => stack.push(*child),
            ProofNode::Replies {
                certificate,
                replies,
            } => {
                if let Some(proof::Certificate::Proof(pass)) = certificate {
                    stack.push(*pass);
                }
                stack.extend(replies.iter().map(|(_, c)| *c));
            }
            ProofNode::Five | ProofNode::Vcf { .. } => {}
        }
    }
    count
}
