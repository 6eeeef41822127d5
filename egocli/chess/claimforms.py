"""The claim forms of the checker (chess/claims.py) as data: the slots a pattern is written in, and each form's
name, pattern and the check that decides it. Adding a form touches CLAIM_FORMS (and CHECKS for a new check)."""

from __future__ import annotations

STOP = (r"(?<![\w-])(?:O-O|[KQRBN][a-h]?[1-8]?x?[a-h][1-8]|[a-h]x[a-h][1-8]|[a-h][1-8][+#=])"
        r"|\b(?i:white|black|plays|play|playing)\b")
"""What a `gap` or a `link` never passes: a move, a side's name (a new subject), or a verb of playing (what
follows it is a move, also a bare pawn move such as 'plays g6')."""
SLOTS = {
    "move": r"(?<![\w-])(?P<{n}>O-O(?:-O)?[+#]?|[KQRBN][a-h]?[1-8]?x?[a-h][1-8][+#]?|[a-h]x[a-h][1-8](?:=[QRBN])?"
            r"[+#]?|[a-h][1-8](?:=[QRBN][+#]?|[+#]))(?![\w=])",
    "square": r"(?<![\w-])(?P<{n}>[a-h][1-8])(?![\w=+#])",
    "spot": r"(?<![\w-])(?P<{n}>O-O(?:-O)?|[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](?:=[QRBN])?)[+#]?(?![\w=])",
    "piece": r"(?i:(?:(?P<{n}_color>white|black)(?:'s)?\s+)?(?P<{n}>king|queen|rook|bishop|knight|pawn)s?)",
    "side": r"(?i:(?P<{n}>kingside|queenside|king's side|queen's side|king side|queen side))",
    "gap": r"(?:(?!{stop})[^.;:!?])*?",
    "link": r"(?:(?!{stop})[^.!?])*?\b(?i:it|which)\s+(?:(?:(?!{stop})[^.!?;:])*?\band\s+)?",
    "color": r"(?i:(?P<{n}>white|black))",
}
"""Slot name -> regex; `{n}` is the group name, so one form may use a slot twice (piece, piece2). A bare
square ('g6') is a square, also when it is a pawn's move: `spot` is a move or a square. What follows a move
is said of the nearest move before it, until a new subject: a `gap` stays inside one clause ('Black threatens
Rxd4, so White plays Nb5+, which gives check': the check is Nb5+'s; 'Rc8, then White mates with Qxc8#': the
mate is not Rc8's), a `link` reaches across commas, colons and semicolons to a pronoun ('it', 'which', and
what is joined to it by 'and') that stands for that move ('Rxe3+, the rook from e5 to e3: it gives check';
'g6, which stops the mate and attacks the queen on h5')."""

CLAIM_FORMS: tuple[tuple[str, str, str], ...] = (
    ("attack", r"{piece} on {square}(?:,[^,]*,)? (?i:attacks|attacking|threatens|hits|targets) (?:the |your |a )?"
               r"{piece2} on {square2}", "attacks"),
    ("attack", r"{piece} on {square} (?i:attacks|attacking|threatens|hits|targets) {square2}", "attacks"),
    ("attack", r"{move}(?: |{link}|{gap}\b(?=\w+ing\b))(?i:attacks|threatens|hits|targets|attacking|threatening|"
               r"hitting|targeting) (?:the |a )?{piece2} on {square2}", "move_attacks"),
    ("attack", r"{move},? (?i:against|at|on|hitting|taking|winning|to win) (?:the |an? )?(?:(?i:undefended|hanging|"
               r"loose|unprotected) )?{piece2} on {square2}", "move_targets"),
    ("defend", r"{piece} on {square} (?i:defends|protects|guards|covers) (?:the )?{piece2} on {square2}",
     "defends"),
    ("defend", r"{move}(?: |{link}|{gap}\b(?=\w+ing\b))(?i:defends|protects|guards|covers|defending|protecting|"
               r"guarding|covering) (?:the )?{piece2} on {square2}", "move_defends"),
    ("hanging", r"{piece} on {square}(?: and (?:the )?(?:{piece2} on )?{square2})? (?i:is |are |was |)"
                r"(?i:(?:attacked|left) and |)(?i:hanging|undefended|unprotected|loose|en prise)", "hanging"),
    ("hanging", r"(?i:hanging|undefended|unprotected|loose) {piece} on {square}", "hanging"),
    ("check", r"{move}(?:{gap}\b(?i:gives|giving|is|with|delivers|delivering)|{link}(?i:gives|is|delivers)) "
              r"(?:a )?(?i:check)\b", "move_checks"),
    ("mate", r"{move}(?:{gap}\b(?i:mates|mating|checkmates|checkmating|is (?:check)?mate|(?:delivers|delivering) "
             r"(?:check)?mate)|{link}(?i:mates|checkmates|is (?:check)?mate|delivers (?:check)?mate))\b", "move_mates"),
    ("mate", r"(?i:\b(?:check)?mates?)(?:\s+[a-z]+){0,2}?\s+(?i:with|by) {move}", "move_mates"),
    ("check", r"(?i:\bchecks?)(?:\s+[a-z]+){0,2}?\s+(?i:with|by) {move}", "move_checks"),
    ("stops", r"{move}(?: |{link}|{gap}\b(?=\w+ing\b))(?i:stops|prevents|parries|blocks|stopping|preventing|"
              r"parrying|blocking) (?:the |a |that )?(?i:mate|checkmate|mating threat)\b", "stops_mate"),
    ("threat", r"(?i:threat(?:ens|ening)? (?:of )?(?:to )?(?:check)?mate)", "mate_threat"),
    ("threat", r"{color}(?:'s)? (?i:threat(?:ens|ening)?|is threatening)\s+(?:[a-z]+\s+){0,3}?{move}", "side_threat"),
    ("threat", r"(?i:threat(?:ens|ening)?)\s+(?:[a-z]+\s+){0,3}?{move}", "threat_move"),
    ("mover", r"{color}(?:'s (?i:best move is|best is|move is)|(?:(?!\b(?i:white|black)\b)[^.;:!?])*?\b"
              r"(?i:plays|should play|can play|must play|answers|replies|responds|moves|goes|takes))(?: (?i:with))? "
              r"{spot}", "played_by"),
    ("side", r"{spot}{gap}\b(?i:on|to|towards|of) the {side}", "side"),
    ("side", r"{side}{gap}{spot}", "side"),
    ("in check", r"{color}(?:'s)?(?i: king)? (?i:is|are|was) (?i:in |now in |)(?i:check)\b", "in_check"),
    ("mated", r"{color}(?:'s)?(?i: king)? (?i:is|are|was|gets|will be) (?i:in |)(?i:checkmate|mate)d?\b", "mated"),
    ("outcome", r"(?:{color}(?:'s)?\s+(?:\w+\s+){0,2}?)?(?i:\b(?P<word>win|wins|winning|won|lose|loses|losing|"
                r"lost|draw|drawn|drawing)\b)(?!\s+\d)", "outcome"),
    ("advantage", r"(?i:\b(?:strong|good|better|advantage|edge|favou?rs?|favou?rable|ahead|superior)\b)"
                  r"{gap}\b(?i:for) {color}\b", "advantage"),
    ("advantage", r"{color} (?i:has|have|is|keeps|gets) (?i:an |the |a )?(?i:advantage|better|ahead|edge|upper)",
     "advantage"),
    ("pin", r"{piece} on {square} (?i:is |are |)(?i:pinned)", "pinned"),
    ("pin", r"(?i:pins|pinning|pin) (?:the |a )?{piece} on {square}", "pinned"),
    ("fork", r"(?i:\bfork(?:s|ed|ing)?\b)", "fork"),
    ("pin", r"(?i:\bpin(?:s|ned|ning)?\b)", "pin"),
    ("placed", r"{piece} (?i:on|at) {square}", "placed"),
    ("move", r"{move}", "move"),
    ("square", r"{square}", "square"),
)
"""(form, pattern, check): a claim of `form` wherever the pattern matches; `check` names a function of CHECKS."""
