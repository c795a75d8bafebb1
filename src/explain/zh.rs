//! Chinese (simplified): every reason and every fact of the position report as a sentence.
//! The usual terms: 将军, 将杀, 逼和, 王车易位, 吃过路兵, 升变, 牵制, 三次重复, 五十回合,
//! 子力不足, 死局; citations in full-width parentheses `（FIDE 3.9.2）`.

use super::analysis::{CastlingWriting, MoveCategory};
use super::lang::{Legend, RefereeText, TablebaseWords, Wording};
use super::reason::{Castling, CastlingLoss, CheckAnswer, Line, Placed, Reason};
use super::report::{MateFact, Note};
use super::text::{join_with, moves_with_uci, shorten, square_names, DeadWhy};
use crate::chess::{CastleSide, Color, FenError, Piece, PieceType, Square};
use crate::rules::pgn::PgnError;
use crate::rules::unwinnable::Reason as MateReason;
use crate::rules::{Act, AutomaticDraw, DrawClaim, Outcome, ProblemCode};
use crate::syzygy::Wdl;

pub struct Chinese;

impl Wording for Chinese {
    fn reason(&self, r: &Reason) -> String {
        reason(r)
    }

    fn note(&self, n: &Note) -> String {
        note(n)
    }

    fn cited(&self, sentence: String, rule: &str) -> String {
        format!("{}（FIDE {}）", space_cjk(&sentence), rule.replace("Appendix", "附录").replace("Guidelines", "准则"))
    }

    fn legal_headline(&self, san: &str, uci: &str, what: Option<(Piece, MoveCategory)>) -> String {
        let what = what.map_or_else(String::new, |(p, c)| format!("，{}，{}", piece_name(p), category(c)));
        format!("合法着法：{san}（{uci}）{what}。")
    }

    fn illegal_headline(&self, input: &str, uci: Option<&str>) -> String {
        match uci {
            Some(u) => format!("非法着法：{input}（{u}）。"),
            None => format!("非法着法：{input}。"),
        }
    }

    fn read_as(&self, input: &str, read_as: &str) -> String {
        space_cjk(&format!("“{input}”按 {read_as} 理解。"))
    }

    fn castling_writing(&self, input: &str, w: &CastlingWriting) -> String {
        let san = if w.side == CastleSide::King { "O-O" } else { "O-O-O" };
        let here = &w.here;
        space_cjk(&if w.chess960 {
            format!("在 Chess960（UCI_Chess960）中，王车易位写作王走到己方车的格子：这里 {san} 写作 {here}；“{input}”按王的走法理解。")
        } else {
            format!(
                "“{input}”（王走到己方车的格子）是 Chess960 的王车易位写法；标准国际象棋中 {san} 写作 {here}（王向车的方向走两格），“{input}”按王的走法理解。"
            )
        })
    }

    fn after_move(&self, san: &str) -> String {
        format!("走 {san} 之后：")
    }

    fn position(&self, fen: &str) -> String {
        format!("局面：{fen}")
    }

    fn square_label(&self, sq: Square, piece: Option<Piece>) -> String {
        match piece {
            Some(p) => format!("{sq}，{}", piece_name(p)),
            None => format!("{sq}，空格"),
        }
    }

    fn board_label(&self, bottom: Color) -> String {
        format!("棋盘，{}在下方", color_name(bottom))
    }

    fn legend(&self) -> Legend {
        Legend {
            quiet: "普通移动落点",
            capture: "吃子落点",
            two_step: "兵的两格推进",
            the_move: "所问的着法",
            attacked: "攻击者 / 受攻击的格子",
            in_the_way: "牵制线 / 挡路的棋子",
            other: "理由中提到的其他格子",
            char_width: 12,
        }
    }

    fn fen_error(&self, e: &FenError) -> String {
        space_cjk(&match e {
            FenError::Empty => "FEN 为空".to_string(),
            FenError::FieldCount(n) => format!(
                "FEN 有 {n} 个字段；应为 6 个（棋子位置、行棋方、易位权、吃过路兵格、半回合计数、回合数；两个计数可省略）"
            ),
            FenError::RankCount(n) => format!("棋子位置有 {n} 个横线；应为 8 个，以“/”分隔"),
            FenError::BadPieceChar { rank, ch } => {
                format!("棋子位置第 {} 横线：“{ch}”不是棋子字母（PNBRQK/pnbrqk）或数字 1-8", rank.char())
            }
            FenError::RankTooLong { rank } => format!("棋子位置第 {} 横线：超过 8 格", rank.char()),
            FenError::RankTooShort { rank, files } => format!("棋子位置第 {} 横线：只有 {files} 格；应为 8 格", rank.char()),
            FenError::KingCount { color, count } => format!("{}有 {count} 个王；应恰好 1 个", color_name(*color)),
            FenError::PawnOnBackRank { square } => format!("{square} 有兵；兵不可能在第 1 或第 8 横线"),
            FenError::BadSideToMove(s) => format!("行棋方为“{s}”；应为 w 或 b"),
            FenError::BadCastling(s) => {
                format!("易位字段“{s}”不是“-”，也不是 KQkq（X-FEN）或车所在列 A-H/a-h（Shredder-FEN）的组合，每方每侧至多一个车")
            }
            FenError::CastlingWithoutPieces { right } => {
                format!("易位权“{right}”不成立：王不在其底线，或该侧（K/Q）或该列（A-H）没有同色车")
            }
            FenError::BadEnPassant(s) => format!("吃过路兵字段“{s}”不是“-”或一个格子"),
            FenError::ImpossibleEnPassant { square } => format!(
                "吃过路兵格 {square} 不可能：它须在第 3 横线（黑方走棋）或第 6 横线（白方走棋），为空，且位于刚走两格的敌兵之后"
            ),
            FenError::BadHalfmoveClock(s) => format!("半回合计数“{s}”不是 0 到 65535 的数"),
            FenError::BadFullmoveNumber(s) => format!("回合数“{s}”不是 1 到 65535 的数"),
            FenError::OpponentInCheck => "不行棋的一方正被将军".to_string(),
            FenError::TooManyPieces { color, count } => format!("{}有 {count} 个棋子；至多可能有 16 个", color_name(*color)),
            FenError::TooManyCheckers => "行棋方受到两个以上棋子的将军，任何合法着法都不会造成这种局面".to_string(),
        })
    }

    fn tablebase_words(&self) -> TablebaseWords {
        TABLEBASE
    }

    fn referee(&self, t: &RefereeText) -> String {
        match t {
            RefereeText::IllegalMove { mover, text, reasons } => {
                format!("{}的着法 {text} 不合规则。{reasons}", color_name(*mover))
            }
            RefereeText::UnreadableMove { mover, text, reasons } => {
                format!("{}的着法 {text} 无法读取。{reasons}", color_name(*mover))
            }
            RefereeText::MoveAfterEnd { text, reasons } => format!("{text} 是在对局结束之后走的。{reasons}"),
            RefereeText::ContradictsLaws { recorded, laws, why } => {
                format!("记录的结果是 {recorded}，但按规则应为 {laws}：{why}")
            }
            RefereeText::OtherVariant { name } => format!("变体“{name}”不按国际棋联国际象棋规则进行：本局不予裁判。"),
            RefereeText::ResultTag { tag, marker } => format!("Result 标签为“{tag}”，而着法记录以 {marker} 结束。"),
            RefereeText::BadFen { error } => format!("FEN 标签无法读取：{error}"),
            RefereeText::Unreadable { error } => unreadable(error),
            RefereeText::Game { number, white, black, result, laws, clean } => {
                let laws = match laws {
                    None => String::new(),
                    Some(Some(r)) => format!("，按规则为 {r}"),
                    Some(None) => "，按规则无法确定结果".to_string(),
                };
                let state = if *clean { "无问题" } else { "有问题" };
                format!("第 {number} 局（{white} - {black}）：{result}{laws}：{state}")
            }
            RefereeText::Problem { ply, code, rule, text } => {
                let at = if *ply == 0 { "整局记录".to_string() } else { format!("第 {ply} 个半回合") };
                let rule = if rule.is_empty() { String::new() } else { format!("（FIDE {rule}）") };
                format!("- {at}：{}{rule}：{text}", problem_name(*code))
            }
            RefereeText::Summary { games, clean, counts } => {
                let counts: Vec<String> =
                    counts.iter().map(|(code, n)| format!("{}：{n}", problem_name(*code))).collect();
                format!("汇总：共 {games} 局，{clean} 局无问题；{}", counts.join("，"))
            }
        }
    }
}

/// A finding of `arbiter referee`, in its report's lines and its summary.
fn problem_name(code: ProblemCode) -> &'static str {
    match code {
        ProblemCode::IllegalMove => "非法着法",
        ProblemCode::MoveAfterEnd => "终局后的着法",
        ProblemCode::ResultContradictsLaws => "结果与规则不符",
        ProblemCode::Unreadable => "无法读取",
        ProblemCode::UnsupportedVariant => "其他变体",
        ProblemCode::ResultTagMismatch => "Result 标签与着法记录不符",
    }
}

/// What in a PGN text cannot be read.
fn unreadable(error: &PgnError) -> String {
    match error {
        PgnError::Read(e) => format!("无法读取 PGN：{e}"),
        PgnError::Fen { game, error } => format!("第 {game} 局：FEN 标签无法读取：{error}"),
        PgnError::Move { game, ply, token, error } => format!("第 {game} 局第 {ply} 个半回合：“{token}”：{error}"),
        PgnError::Tag { game, line, text } => format!("第 {game} 局第 {line} 行：标签格式错误：{text}"),
        PgnError::Unbalanced { game, line, what } => {
            format!("第 {game} 局第 {line} 行：着法记录中的“{what}”没有配对的括号")
        }
        PgnError::Variant { game, name } => {
            format!("第 {game} 局：不支持变体“{name}”（只支持国际棋联国际象棋规则和 960 象棋）")
        }
        PgnError::TagInMovetext { game, line, text } => format!("第 {game} 局第 {line} 行：着法中间出现了标签：{text}"),
        PgnError::GluedResult { game, line, token, result } => {
            format!("第 {game} 局第 {line} 行：“{token}”：结果 {result} 与着法连写在一起（两者之间应有空格）")
        }
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "白方",
        Color::Black => "黑方",
    }
}

fn kind_name(k: PieceType) -> &'static str {
    match k {
        PieceType::Pawn => "兵",
        PieceType::Knight => "马",
        PieceType::Bishop => "象",
        PieceType::Rook => "车",
        PieceType::Queen => "后",
        PieceType::King => "王",
    }
}
/// "白车" / "黑马".
fn piece_name(p: Piece) -> String {
    let c = if p.color == Color::White { "白" } else { "黑" };
    format!("{c}{}", kind_name(p.kind))
}
/// "e8 的黑车".
fn at(p: Piece, sq: Square) -> String {
    format!("{sq} 的{}", piece_name(p))
}

/// "甲、乙和丙".
fn join(items: Vec<String>) -> String {
    join_with(items, "、", "和")
}

/// "在 h1 的车离开后": an attack the castling rook shields only until it moves.
fn once_rook_left(castling: &Castling, behind_rook: bool) -> String {
    if behind_rook {
        format!("在 {} 的车离开后", castling.rook_from)
    } else {
        String::new()
    }
}

fn list(list: &[Placed]) -> String {
    join(list.iter().map(|&(p, s)| at(p, s)).collect())
}

fn side_name(side: CastleSide) -> &'static str {
    match side {
        CastleSide::King => "短易位（王翼，O-O）",
        CastleSide::Queen => "长易位（后翼，O-O-O）",
    }
}

/// Chinese typesetting: one space between a Han character and a square name or number
/// ("被 e8 的黑车"), none next to full-width punctuation.
fn space_cjk(s: &str) -> String {
    let han = |c: char| ('\u{4E00}'..='\u{9FFF}').contains(&c);
    let latin = |c: char| c.is_ascii_alphanumeric();
    let mut out = String::with_capacity(s.len() + 8);
    let mut prev: Option<char> = None;
    for c in s.chars() {
        if let Some(p) = prev {
            if (han(p) && latin(c)) || (latin(p) && han(c)) {
                out.push(' ');
            }
        }
        out.push(c);
        prev = Some(c);
    }
    out
}

fn category(c: MoveCategory) -> String {
    match c {
        MoveCategory::Quiet => "普通移动".into(),
        MoveCategory::Capture => "吃子".into(),
        MoveCategory::DoublePawnPush => "兵前进两格".into(),
        MoveCategory::EnPassant => "吃过路兵".into(),
        MoveCategory::CastlingKingside => "短易位".into(),
        MoveCategory::CastlingQueenside => "长易位".into(),
        MoveCategory::Promotion { piece, capture: false } => format!("升变为{}", kind_name(piece)),
        MoveCategory::Promotion { piece, capture: true } => format!("吃子并升变为{}", kind_name(piece)),
    }
}

fn reason(r: &Reason) -> String {
    match r {
        Reason::Malformed { input } => format!(
            "“{input}”不是一步着法：请用代数记谱法书写，例如 e4、Nf3、exd5、O-O、e8=Q，或写出起止格，例如 e2e4。"
        ),
        Reason::Ambiguous { input, candidates } => {
            let sans: Vec<String> = candidates.iter().map(|(s, _)| s.clone()).collect();
            let first = sans.first().cloned().unwrap_or_default();
            format!(
                "“{input}”可以指不止一步合法着法（{}），记谱时必须注明走的是哪一个棋子，例如 {first}。",
                sans.join("、")
            )
        }
        Reason::TwoReadings { input, pawn, bishop } => format!(
            "“{input}”有两种读法：{pawn}（b 线兵的着法）或 {bishop}（象的着法）。棋子字母要大写，兵吃子要写 x：请写出你要走的着法。"
        ),
        Reason::NoPiece { from: Some(from), .. } => format!("{from} 上没有棋子可走。"),
        Reason::NoPiece { from: None, wanted, to, from_file, from_rank } => match (wanted, to) {
            (Some(p), Some(to)) => {
                let place = match (from_file, from_rank) {
                    (None, None) => String::new(),
                    (Some(f), None) => format!("在 {} 线上", f.char()),
                    (None, Some(r)) => format!("在第 {} 横线上", r.char()),
                    (Some(f), Some(r)) => format!("在 {}{} 上", f.char(), r.char()),
                };
                format!("{}{place}没有能走到 {to} 的{}。", color_name(p.color), kind_name(p.kind))
            }
            _ => "没有这样的棋子可走。".to_string(),
        },
        Reason::SameSquare { piece, square } => {
            format!("走棋要把棋子走到另一个格子；从 {square} 到 {square} 会让{}留在原地。", kind_name(piece.kind))
        }
        Reason::BareSquare { piece, square, moves } => {
            let listed = moves_with_uci(moves, ("（", "）"));
            let moves = match listed.as_slice() {
                [] => "它现在没有合法着法。".to_string(),
                [only] => format!("它唯一的合法着法是 {only}。"),
                _ => format!("它的合法着法有 {}。", join(listed)),
            };
            format!("{square} 只是一个格子（{}所在的格子）；着法还要写出棋子走到的格子。{moves}", piece_name(*piece))
        }
        Reason::NotYourPiece { piece, from } => format!(
            "{}属于{}，但现在轮到{}走棋：双方轮流走棋，每次只能走自己的棋子。",
            at(*piece, *from),
            color_name(piece.color),
            color_name(piece.color.flip())
        ),
        Reason::GameOver { outcome } => match outcome {
            Outcome::Checkmate { winner } => {
                format!("对局已经结束：{}已被将杀，不能再走任何着法。", color_name(winner.flip()))
            }
            Outcome::Draw(AutomaticDraw::Stalemate) => {
                "对局已经结束：轮到走棋的一方没有合法着法且未被将军，形成逼和，为和棋。".to_string()
            }
            Outcome::Draw(AutomaticDraw::DeadPosition) => {
                "对局已经结束：双方都无法通过任何合法着法序列将杀对方（死局），为和棋。".to_string()
            }
            Outcome::Draw(AutomaticDraw::FivefoldRepetition) => {
                "对局已经结束：同一局面已出现五次，自动判和。".to_string()
            }
            Outcome::Draw(AutomaticDraw::SeventyFiveMoves) => {
                "对局已经结束：双方各已连续走了 75 步，期间没有吃子也没有兵的移动，自动判和。".to_string()
            }
        },
        Reason::BadGeometry { piece, from: None, to } => format!(
            "{}没有哪个{}能按{}的走法到达 {to}。",
            color_name(piece.color),
            kind_name(piece.kind),
            kind_name(piece.kind)
        ),
        Reason::BadGeometry { piece, from: Some(from), to } => match piece.kind {
            PieceType::Knight => {
                format!("马走“日”字：先向一个方向走两格，再横移一格；从 {from} 跳不到 {to}。")
            }
            PieceType::Bishop => format!("象只能沿斜线走；{to} 不在经过 {from} 的斜线上。"),
            PieceType::Rook => format!("车只能横走或竖走；{to} 与 {from} 不在同一横线或直线上。"),
            PieceType::Queen => {
                format!("后可以横、竖、斜走任意格，但不能走“日”字；{to} 不在经过 {from} 的任何一条线上。")
            }
            PieceType::King => format!(
                "王每次只能向任意方向走一格（只有从原位王车易位时才横走两格）；从 {from} 到 {to} 不是这样的走法。"
            ),
            PieceType::Pawn => format!(
                "兵只能向前直走一格（在初始位置可走两格），吃子时向前斜走一格；从 {from} 到 {to} 都不符合。"
            ),
        },
        Reason::PathBlocked { piece, from, to, blocker } => {
            if piece.kind == PieceType::Pawn {
                format!("{from} 的兵不能前进两格到 {to}：{}挡在路上，兵不能越子。", at(blocker.0, blocker.1))
            } else {
                format!(
                    "{}不能从 {from} 走到 {to}：途中有{}挡住，只有马可以越过棋子。",
                    kind_name(piece.kind),
                    at(blocker.0, blocker.1)
                )
            }
        }
        Reason::OwnPiece { piece, to, occupant, .. } => format!(
            "{}不能走到 {to}：那里是己方的{}，棋子不能走到己方棋子所在的格子。",
            kind_name(piece.kind),
            kind_name(occupant.kind)
        ),
        Reason::PawnForwardCapture { from, to, occupant, .. } => format!(
            "{from} 的兵不能走到 {to}：正前方是{}，兵只能斜着吃子。",
            at(*occupant, *to)
        ),
        Reason::PawnDiagonalEmpty { from, to, .. } => {
            format!("{from} 的兵只有吃子时才能斜走，而 {to} 是空格，也不是可以吃过路兵的格子。")
        }
        Reason::PawnDoubleNotFirst { from, .. } => {
            format!("{from} 的兵已经不在初始位置，只能一次前进一格。")
        }
        Reason::PawnBackward { from, to, sideways, .. } => {
            let how = if *sideways { "横走" } else { "后退" };
            format!("兵不能后退，也不能横走；从 {from} 到 {to} 是{how}。")
        }
        Reason::EnPassantExpired { piece, to, enemy_pawn, plies_ago, .. } => {
            let when = match plies_ago {
                Some(n) => format!("那是 {n} 个半回合之前的事"),
                None => "那发生在本棋谱记录开始之前".to_string(),
            };
            format!(
                "{enemy_pawn} 的{}确实走了两格越过 {to}，但{when}；吃过路兵只能在对方兵走两格后紧接着的一着进行。",
                piece_name(Piece::new(piece.color.flip(), PieceType::Pawn))
            )
        }
        Reason::PromotionRequired { from, to, .. } => format!(
            "{from} 的兵走到底线 {to}，必须立即升变为后、车、象或马：请注明升变的棋子，例如 {}。",
            super::text::promotion_example(*from, *to)
        ),
        Reason::BadPromotionPiece { promotion, last_rank: true, .. } => {
            format!("兵只能升变为同色的后、车、象或马，不能升变为{}。", kind_name(*promotion))
        }
        Reason::BadPromotionPiece { piece, from, to, promotion, last_rank: false } => format!(
            "只有走到底线的兵才能升变；{}从 {from} 到 {to} 不是这样的着法，不能指定升变棋子（{}）。",
            kind_name(piece.kind),
            kind_name(*promotion)
        ),
        Reason::CastlingRightsLost { castling, cause } => {
            let c = color_name(castling.color);
            let (side, rook, king) = (&castling.side, castling.rook_from, castling.king_from);
            match cause {
                CastlingLoss::KingNotHome => {
                    format!("{c}不能{}：王已不在原位 {king}，说明它已经走动过。", side_name(*side))
                }
                CastlingLoss::KingMoved => {
                    format!("{c}不能再王车易位：王在本局中已经走动过，即使回到 {king} 也不能恢复易位权。")
                }
                CastlingLoss::RookMoved => format!(
                    "{c}不能再{}：{rook} 的车在本局中已经走动过，即使回到原位也不能恢复易位权。",
                    side_name(*side)
                ),
                CastlingLoss::RookGone => {
                    format!("{c}不能{}：{rook} 上已经没有己方的车（已走动或被吃掉）。", side_name(*side))
                }
                CastlingLoss::NotInStartPosition => format!(
                    "此局面中{c}没有{}的权利（FEN 中没有记录）：王或 {rook} 的车之前已经走动过。",
                    side_name(*side)
                ),
            }
        }
        Reason::CastlingPathOccupied { castling, occupied } if castling.chess960 => format!(
            "{}不能{}：路线上有{}。在 960 象棋中，王（{}）与其目标格 {} 之间、车（{}）与其目标格 {} 之间的所有格子（包括目标格）除了这个王和这个车以外都必须是空的。",
            color_name(castling.color),
            side_name(castling.side),
            list(occupied),
            castling.king_from,
            castling.king_to,
            castling.rook_from,
            castling.rook_to
        ),
        Reason::CastlingPathOccupied { castling: Castling { color, side, .. }, occupied } => format!(
            "{}不能{}：王和车之间有{}，两者之间的格子必须全部为空{}。",
            color_name(*color),
            side_name(*side),
            list(occupied),
            if *side == CastleSide::Queen { "（包括 b 线上的那一格）" } else { "" }
        ),
        Reason::CastlingInCheck { castling: Castling { color, .. }, checkers } => format!(
            "{}的王正被{}将军，被将军时不能王车易位。",
            color_name(*color),
            list(checkers)
        ),
        Reason::CastlingThroughCheck { castling, square, attackers, behind_rook } => format!(
            "{}不能{}：王要经过的 {square} {}受到{}的攻击。",
            color_name(castling.color),
            side_name(castling.side),
            once_rook_left(castling, *behind_rook),
            list(attackers)
        ),
        Reason::CastlingIntoCheck { castling, square, attackers, behind_rook } => format!(
            "{}不能{}：王{} {square} {}受到{}的攻击。",
            color_name(castling.color),
            side_name(castling.side),
            if castling.king_from == castling.king_to { "留在原地，而" } else { "的落点" },
            once_rook_left(castling, *behind_rook),
            list(attackers)
        ),
        Reason::KingIntoCheck { to, attackers, defended, pinned_attackers, kings_meet, only_pinned_attackers, .. } => {
            let mut s = match defended {
                Some(d) => format!(
                    "王不能吃 {to} 的{}：它受到{}的保护，吃掉它就等于把王送进将军。",
                    kind_name(d.kind),
                    list(attackers)
                ),
                None => format!("王不能走到 {to}：该格受到{}的攻击，王不能走进被将军的格子。", list(attackers)),
            };
            if *kings_meet {
                s.push_str("两个王永远不能相邻。");
            }
            if !pinned_attackers.is_empty() {
                let sqs = square_names(pinned_attackers);
                // Cited here only when another attacker decides (then the reason cites 3.9.2).
                let cite = if *only_pinned_attackers { "" } else { "（FIDE 3.1.3）" };
                s.push_str(&format!(
                    "{} 的棋子虽然被牵制，但仍然攻击 {to}：被牵制的棋子的攻击同样有效{cite}。",
                    join(sqs)
                ));
            }
            s
        }
        Reason::LeavesKingInCheck { piece, from, to, king, checkers, double, unblockable } => {
            let mut s = format!(
                "{king} 的王正被{}将军，而把{}从 {from} 走到 {to} 并不能解除将军。",
                list(checkers),
                kind_name(piece.kind)
            );
            if *double {
                s.push_str("这是双将：只有走王才能解将。");
            } else if *unblockable {
                s.push_str("马或兵的将军无法阻挡：只能吃掉将军的棋子或者走王。");
            }
            s
        }
        Reason::ExposesKing { piece, from, to, king, pinner, en_passant } => {
            if *en_passant {
                format!(
                    "从 {from} 到 {to} 吃过路兵会同时移走这条线上的两个兵，让{}直接将军 {king} 的王。",
                    at(pinner.0, pinner.1)
                )
            } else {
                format!(
                    "{from} 的{}被{}牵制：它一旦走到 {to}，{} 与 {king} 的己方王之间的线路就会打开，王将被将军。",
                    kind_name(piece.kind),
                    at(pinner.0, pinner.1),
                    pinner.1
                )
            }
        }
        Reason::PawnAdvance { from, to, .. } => format!("兵从 {from} 向前走一格到空格 {to}。"),
        Reason::KnightMove { from, to, .. } => format!("马从 {from} 走“日”字跳到 {to}，马可以越过其他棋子。"),
        Reason::KingStep { from, to, .. } => format!("王从 {from} 走一格到 {to}。"),
        Reason::BishopMove { piece, from, to, line }
        | Reason::RookMove { piece, from, to, line }
        | Reason::QueenMove { piece, from, to, line } => format!(
            "{}沿{}从 {from} 走到 {to}，途中没有棋子阻挡。",
            kind_name(piece.kind),
            match line {
                Line::Rank => "横线",
                Line::File => "直线",
                Line::Diagonal => "斜线",
            }
        ),
        Reason::PawnDoubleStep { from, to, passed, .. } => {
            format!("兵在初始位置 {from} 可以前进两格，途经的 {passed} 和落点 {to} 都是空格。")
        }
        Reason::PawnCapture { from, to, captured, .. } => {
            format!("{from} 的兵向前斜走一格，吃掉{}。", at(*captured, *to))
        }
        Reason::EnPassant { piece, to, captured_on, .. } => format!(
            "吃过路兵：{captured_on} 的{}刚刚走了两格，越过了 {to}，所以仅在紧接着的这一着，可以像它只走了一格那样把它吃掉，并把它从 {captured_on} 拿走。",
            piece_name(Piece::new(piece.color.flip(), PieceType::Pawn))
        ),
        Reason::Promotion { to, promotion, .. } => {
            format!("兵到达底线，在 {to} 升变为{}。", kind_name(*promotion))
        }
        Reason::CastlingKingside { castling } | Reason::CastlingQueenside { castling } if castling.chess960 => {
            let goes = |from: Square, to: Square| {
                if from == to {
                    format!("留在 {from}")
                } else {
                    format!("从 {from} 走到 {to}")
                }
            };
            format!(
                "960 象棋的王车易位，{}：王{}，车{}。王和车都还没有走动过，它们各自与目标格之间的格子除了这两个棋子以外全空，王没有被将军，经过和到达的格子也都不受攻击。",
                side_name(castling.side),
                goes(castling.king_from, castling.king_to),
                goes(castling.rook_from, castling.rook_to)
            )
        }
        Reason::CastlingKingside { castling } | Reason::CastlingQueenside { castling } => format!(
            "王车易位，{}：王从 {} 走到 {}，车从 {} 走到 {}。王和车都还没有走动过，两者之间的格子全空，王没有被将军，经过和到达的格子也都不受攻击。",
            side_name(castling.side),
            castling.king_from,
            castling.king_to,
            castling.rook_from,
            castling.rook_to
        ),
        Reason::CastlingAttackedRookAllowed { squares, .. } => {
            let sqs = square_names(squares);
            format!(
                "{} 受到攻击并不妨碍易位：只有王所在的格子、经过的格子和到达的格子必须不受攻击。",
                join(sqs)
            )
        }
        Reason::Capture { piece, to, captured, .. } => {
            format!("{}吃掉{}，把它从棋盘上拿走。", kind_name(piece.kind), at(*captured, *to))
        }
        Reason::PinnedAlongLine { piece, king, pinner, captures_pinner, .. } => {
            if *captures_pinner {
                format!(
                    "{}被{}牵制，但可以吃掉牵制它的棋子：{king} 的王不会因此暴露。",
                    kind_name(piece.kind),
                    at(pinner.0, pinner.1)
                )
            } else {
                format!(
                    "{}被{}牵制，但它沿着牵制线移动，仍然挡在 {king} 的王前面。",
                    kind_name(piece.kind),
                    at(pinner.0, pinner.1)
                )
            }
        }
        Reason::ResolvesCheck { piece, to, how, checkers } => match how {
            CheckAnswer::CapturesChecker => {
                format!("用{}吃掉将军的棋子（{}），解除了将军。", kind_name(piece.kind), list(checkers))
            }
            CheckAnswer::Blocks => format!("在 {to} 挡住{}的将军线路，解除了将军。", list(checkers)),
            CheckAnswer::KingMoves => format!("王走出了{}的攻击范围，解除了将军。", list(checkers)),
        },
        Reason::KingSafe { king, king_moved: true } => format!("{king} 不受对方任何棋子攻击，王走到那里是安全的。"),
        Reason::KingSafe { king, king_moved: false } => {
            format!("走完之后 {king} 的王不受攻击，所以这步棋合法。")
        }
    }
}

fn note(n: &Note) -> String {
    match n {
        Note::ToMove { side } => format!("轮到{}走棋。", color_name(*side)),
        Note::Check { side, checkers } => {
            let kind = if checkers.len() > 1 { "双将" } else { "将军" };
            format!("{kind}：{}的王受到{}的攻击。", color_name(*side), list(checkers))
        }
        Note::NotInCheck { side } => format!("{}的王没有被将军。", color_name(*side)),
        Note::LegalMoves { side, count } => format!("{}共有 {count} 步合法着法。", color_name(*side)),
        Note::Checkmate { loser } => format!(
            "将杀！{}的王被将军，且没有任何合法着法可以解将。{}获胜。",
            color_name(*loser),
            color_name(loser.flip())
        ),
        Note::Stalemate { side } => {
            format!("逼和：{}没有任何合法着法，也没有被将军，对局为和棋。", color_name(*side))
        }
        Note::DeadPosition { white, black } => {
            let why = match DeadWhy::of(*white, *black) {
                DeadWhy::InsufficientMaterial => "子力不足".to_string(),
                DeadWhy::BothSides(r) => both_sides_reason(r),
                DeadWhy::EachSide => each_side(*white, *black),
            };
            format!("死局：双方都无法通过任何合法着法序列将杀对方（{why}），对局为和棋。")
        }
        Note::MatePossible { side, fact } => {
            let (us, them) = (color_name(*side), color_name(side.flip()));
            match fact {
                MateFact::Winnable { line } => {
                    format!("{us}仍可以通过一系列合法着法将杀对方，例如 {line}。{them}若认输或超时，都判负。")
                }
                MateFact::Unwinnable { reason } => format!(
                    "{us}已无法通过任何合法着法序列将杀对方：{}。{them}若认输或超时，结果为和棋。",
                    mate_reason(*side, *reason)
                ),
                MateFact::Undetermined { nodes } => format!(
                    "在搜索预算内（{nodes} 个局面）未能判定{us}是否仍能将杀对方；除非证明不可能，{them}认输或超时都判负。"
                ),
            }
        }
        Note::Ruling { side, act, already_over, result, fact, .. } => {
            let (us, them) = (color_name(*side), color_name(side.flip()));
            let event = match act {
                Act::Resignation => format!("如果{us}现在认输"),
                Act::FlagFall => format!("如果{us}现在超时"),
            };
            match (already_over, fact) {
                (Some(r), _) => format!(
                    "对局已在棋盘上结束（{r}），{}不改变结果。",
                    match act {
                        Act::Resignation => "认输",
                        Act::FlagFall => "超时",
                    }
                ),
                (None, MateFact::Unwinnable { reason }) => format!(
                    "{event}，对局为和棋（{result}）：{them}无法通过任何合法着法序列将杀对方：{}。",
                    mate_reason(side.flip(), *reason)
                ),
                (None, MateFact::Winnable { line }) => {
                    format!("{event}，{them}获胜（{result}）：{them}仍可以通过一系列合法着法将杀对方，例如 {line}。")
                }
                (None, MateFact::Undetermined { .. }) => {
                    format!("{event}，{them}获胜（{result}）：在搜索预算内未能证明{them}无法将杀对方。")
                }
            }
        }
        Note::FivefoldRepetition => "同一局面已经出现五次，自动判和。".to_string(),
        Note::SeventyFiveMoves => "双方各已连续走了 75 步，期间没有吃子也没有兵的移动，自动判和。".to_string(),
        Note::MateBeatsSeventyFive => {
            "这已是连续第 150 个（或更多）没有吃子和兵移动的半回合，但将杀优先于七十五回合规则。".to_string()
        }
        Note::Repetitions { count } => {
            format!("此局面在本局中已出现 {count} 次（同一方走棋、相同棋子位于相同格子、可走着法相同，才算同一局面）。")
        }
        Note::HalfmoveClock { count } => format!(
            "自上次吃子或兵的移动以来已走了 {count} 个半回合（达到 100 可以申请五十回合和棋，达到 150 自动和棋）。"
        ),
        Note::ClaimThreefoldNow { side, count } => format!(
            "{}现在可以申请三次重复和棋：此局面已出现 {count} 次。和棋不会自动生效，需由行棋方提出申请。",
            color_name(*side)
        ),
        Note::ClaimFiftyNow { side, count } => format!(
            "{}现在可以依据五十回合规则申请和棋（已连续 {count} 个半回合没有吃子和兵的移动）。和棋不会自动生效。",
            color_name(*side)
        ),
        Note::ClaimWithMove { side, draw, moves } => {
            let (shown, more) = shorten(moves, 6);
            let list = shown.join("、");
            let more = if more > 0 { format!("（或另外 {more} 步中的任意一步）") } else { String::new() };
            let what = match draw {
                DrawClaim::ThreefoldRepetition => "三次重复",
                DrawClaim::FiftyMoves => "五十回合",
            };
            format!(
                "{}可以先写下并向裁判声明着法 {list}{more}，由于这步棋会形成{what}的条件，可据此申请和棋。",
                color_name(*side)
            )
        }
        Note::Claim(v) => {
            let who = color_name(v.side);
            let (what, needed) = match v.draw {
                DrawClaim::ThreefoldRepetition => ("三次重复", "需要出现 3 次"),
                DrawClaim::FiftyMoves => ("五十回合规则", "需要连续 100 个半回合"),
            };
            let count = v.count;
            let basis = match (&v.with_move, v.draw) {
                (None, DrawClaim::ThreefoldRepetition) => format!("该局面已出现 {count} 次"),
                (None, DrawClaim::FiftyMoves) => format!("已连续 {count} 个半回合没有吃子或动兵"),
                (Some((_, san)), DrawClaim::ThreefoldRepetition) => format!("走 {san} 后该局面将出现 {count} 次"),
                (Some((_, san)), DrawClaim::FiftyMoves) => {
                    format!("走 {san} 后将连续 {count} 个半回合没有吃子或动兵")
                }
            };
            let claim = match &v.with_move {
                None => format!("{who}申请{what}和棋"),
                Some((_, san)) => format!("{who}先记下 {san} 并申请{what}和棋"),
            };
            match (&v.with_move, v.correct) {
                (_, true) => format!("{claim}：{basis}。申请正确，对局和棋。"),
                (None, false) => format!("{claim}，但{basis}，{needed}。申请不正确，对局继续。"),
                (Some((_, san)), false) => {
                    format!("{claim}，但{basis}，{needed}。申请不正确，对局继续，所声明的着法 {san} 必须走出。")
                }
            }
        }
        Note::Attacks { piece, targets } => {
            let (p, sq) = *piece;
            format!("{}现在攻击{}。", at(p, sq), list(targets))
        }
    }
}

/// Why `side` can never checkmate, as a clause.
fn mate_reason(side: Color, r: MateReason) -> String {
    let (us, them) = (color_name(side), color_name(side.flip()));
    match r {
        MateReason::Checkmated => format!("{us}已被将杀"),
        MateReason::Stalemate => "局面已是逼和".to_string(),
        MateReason::SeventyFiveMoves => "七十五回合规则已结束对局".to_string(),
        MateReason::BareKing => format!("{us}只剩下王"),
        MateReason::InsufficientMaterial => {
            format!("{us}的子力（单马，或全部走同色格的象）永远无法将杀，而{them}没有任何棋子能堵住自己王的出路")
        }
        MateReason::NoCheck => {
            format!("{us}的任何棋子都永远无法攻击{them}王能到达的格子（兵已被永久封锁，棋子被隔开）")
        }
        MateReason::NoMatingSquare => {
            format!("{us}虽然能将军，但{them}王无论站在哪里，总有一个出路格永远无法被控制或堵住")
        }
        MateReason::Exhaustive => format!("已检查了之后可能出现的全部局面，没有一个是{us}将杀对方"),
        MateReason::Exhaustive75 => {
            format!("已检查了七十五回合规则结束对局之前可能出现的全部局面，没有一个是{us}将杀对方")
        }
    }
}

/// The same reason holding for both players, as a clause.
fn both_sides_reason(r: MateReason) -> String {
    match r {
        MateReason::NoCheck => {
            "双方的任何棋子都永远无法攻击对方王能到达的格子（兵已被永久封锁，棋子被隔开）".to_string()
        }
        MateReason::NoMatingSquare => "无论哪一方的王站在哪里，总有一个出路格永远无法被控制或堵住".to_string(),
        MateReason::Exhaustive => "已检查了之后可能出现的全部局面，没有一个是将杀".to_string(),
        MateReason::Exhaustive75 => "已检查了七十五回合规则结束对局之前可能出现的全部局面，没有一个是将杀".to_string(),
        other => each_side(other, other),
    }
}

/// Each player's reason, as a clause.
fn each_side(white: MateReason, black: MateReason) -> String {
    format!("白方：{}；黑方：{}", mate_reason(Color::White, white), mate_reason(Color::Black, black))
}

/// The phrases of the tables' value.
const TABLEBASE: TablebaseWords = TablebaseWords {
    head: "残局库（Syzygy；双方均走最佳着法，并非棋规裁决）：",
    not_in_tables: |head, pieces, largest| format!("{head}不在残局库中（{pieces} 个棋子，残局库最多 {largest} 个）"),
    unknown: |head, why| format!("{head}未知：{why}"),
    dtz: |dtz| match dtz {
        Ok(d) => format!("，距下一次吃子或兵的移动 {} 个半回合（DTZ {d}）", d.abs()),
        Err(e) => format!("（DTZ 未知：{e}）"),
    },
    value: |side, value, dtz, clock| {
        let value = match value {
            Wdl::Win => "胜",
            Wdl::CursedWin => "胜，但按五十回合规则为和（受诅咒的胜）",
            Wdl::Draw => "和",
            Wdl::BlessedLoss => "负，但按五十回合规则为和（受祝福的负）",
            Wdl::Loss => "负",
        };
        format!("  {}走棋：{value}{dtz}，按五十回合计数为 0 计（当前为 {clock}）", color_name(side))
    },
    result: |best| match best {
        Wdl::Win => "在五十回合规则内取胜",
        Wdl::CursedWin => "胜，但来不及在五十回合规则内取胜",
        Wdl::Draw => "和",
        Wdl::BlessedLoss => "负，但五十回合规则可以救和",
        Wdl::Loss => "负",
    },
    move_dtz: |san, dtz| format!("{san}（DTZ {dtz}）"),
    separator: "、",
    best: |result, moves| format!("  按当前计数的最佳结果：{result}；着法：{moves}"),
    moves_unknown: |why| format!("  着法未知：{why}"),
};
