"""The battle page (8.2-8.10): both Impact totals on a track, the initiative, each deployment
with its card and arithmetic, Loyalty Challenges, the finish, the losses and the result.

Blocks deploy, and losses are taken, by moving blocks on the table (the deployment trays and the
casualty tray); the cards are not tagged, so which card was played is asked as a question, and a
Loyalty Challenge or a finish is tapped here. Every number opens its rule and arithmetic.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pygame

from companion.games.sekigahara.components import Clan, Side
from companion.games.sekigahara.facade import (
    Battle,
    DeploymentShown,
    Face,
    clan_name,
    cm,
    count_words,
    place,
)
from ui.sekigahara.control import Snapshot
from ui.sekigahara.parts import Detail, sentence, side_colour, side_name
from ui.shell import theme as th
from ui.shell.canvas import Canvas

TRACK_MAX = 48
"""The printed Impact track runs to 48."""

Button = tuple[str, Callable[[], None] | None, th.Colour]


_CLANS = re.compile(r"\b(" + "|".join(c.value for c in Clan) + r")\b")


def face_words(face: Face) -> str:
    """A revealed block as players name it: "Ukita 3-mon gun", "Ishida 4-mon leader"."""
    extra = f" {face.attack}" if face.attack else ""
    lead = " leader" if face.leader else ""
    return f"{clan_name(face.clan)} {face.mon}-mon{extra}{lead}"


def card_words(card: str | None) -> str:
    """The card played, clans as printed: "a Mōri special card"; a leader needs none."""
    if card is None:
        return "no card (a leader, 8.2.4)"
    return _CLANS.sub(lambda m: clan_name(m.group(1)), card)


def deployment_line(d: DeploymentShown) -> str:
    blocks = " + ".join(face_words(f) for f in d.faces)
    card = card_words(d.card)
    fate = " · challenged, defected" if d.defected else (" · challenged, refuted"
                                                         if d.challenged else "")
    return f"{side_name(d.side)}: {blocks} with {card}: {d.total} Impact{fate}"


HOW_TO_DEPLOY = ("To deploy: lay a card face up on your side of the board, then set a block "
                 "of the card's clan face up on your deployment tray (8.2.3). A leader may "
                 "deploy first with no card (8.2.4).")


def strength_line(snap: Snapshot, b: Battle) -> str:
    """How many blocks each side has in the battle, and how many it has deployed (public:
    the stacks are counted on the board, the deployed blocks stand face up)."""
    stack = snap.view.payload.locations.get(b.location)
    parts = []
    for side in Side:
        n = 0 if stack is None else (stack.ishida if side is Side.ISHIDA else stack.tokugawa)
        shown = sum(len(d.faces) for d in b.deployments if d.side is side)
        parts.append(f"{side_name(side)} {count_words(n, 'block')}, {shown} deployed")
    return " · ".join(parts)


def _impact_detail(battle: Battle, side: Side) -> Detail:
    mine = [d for d in battle.deployments if (d.side is side) != d.defected]
    lines = [f"{side_name(side)} has {battle.impact.get(side, 0)} Impact in all (8.3.1):"]
    for d in mine:
        moved = " (defected to this side, 8.6.1)" if d.defected else ""
        lines += [f"{' + '.join(face_words(f) for f in d.faces)}{moved}: "
                  + "; ".join(d.impacts)]
    if not mine:
        lines.append("nothing deployed yet")
    return Detail(f"Impact of {side_name(side)}", tuple(lines), ("8.3.2", "8.3.3", "8.4.1"))


def _result_detail(battle: Battle) -> Detail:
    r = battle.result
    assert r is not None
    lines = [f"Impact: Ishida {r.impact.get(Side.ISHIDA, 0)}, "
             f"Tokugawa {r.impact.get(Side.TOKUGAWA, 0)}; {side_name(r.winner)} wins"
             + (" (ties go to the defender)" if len(set(r.impact.values())) == 1 else "")]
    rules = ["8.7.1"]
    for side in Side:
        due = r.losses_due.get(side, 0)
        suffered = r.impact.get(side.opponent, 0)
        extra = 1 if side is not r.winner else 0
        if not battle.siege and suffered // 7 + extra == due:
            lines.append(f"{side_name(side)} suffered {suffered}: {suffered} // 7 = "
                         f"{suffered // 7}" + (" + 1 for losing" if extra else "")
                         + f" = {due} lost")
        else:
            lines.append(f"{side_name(side)} loses {due}")
    if battle.siege:
        rules.append("8.9.4")
        if r.castle_falls is not None:
            lines.append("The castle falls" if r.castle_falls else "The castle holds")
    return Detail("Result", tuple(lines), tuple(rules))


def draw(canvas: Canvas, rect: pygame.Rect, snap: Snapshot,
         open_detail: Callable[[Detail], None]) -> None:
    t = canvas.theme
    b = snap.view.payload.battle
    canvas.fill(th.PANEL, rect, radius=t.gap)
    if b is None:
        return
    inner = rect.inflate(-2 * t.gap, -2 * t.gap)
    where = place(b.location)
    kind = f"Siege of {where}" if b.siege else f"Battle at {where}"
    y = canvas.text(f"{kind}: {side_name(b.attacker)} attacks", inner.topleft, size=t.body,
                    bold=True).bottom + t.gap // 2
    y = canvas.text(strength_line(snap, b), (inner.x, y), size=t.small,
                    width=inner.width).bottom + t.gap // 2
    if b.initiative is not None and b.result is None:
        y = sentence(canvas, HOW_TO_DEPLOY, (inner.x, y), inner.width, open_detail,
                     title="How to deploy", size=t.small, colour=th.LIT,
                     max_lines=3).bottom + t.gap // 2
    y = _track(canvas, pygame.Rect(inner.x, y, inner.width, t.target * 2), b, open_detail)
    who = ("Initiative: " + side_name(b.initiative) + " (8.5)") if b.initiative else ""
    if b.finished:
        who += ("; " if who else "") + "finished: " + ", ".join(side_name(s) for s in b.finished)
    if who:
        y = canvas.text(who, (inner.x, y), size=t.small).bottom + t.gap // 2
    if b.result is not None:
        r = b.result
        loss = ", ".join(f"{side_name(s)} loses {n}" for s, n in r.losses_due.items())
        rect_r = canvas.text(f"{side_name(r.winner)} wins: {loss}", (inner.x, y), bold=True,
                             colour=side_colour(r.winner), width=inner.width)
        hit = pygame.Rect(inner.x, y, inner.width, max(rect_r.height, t.target))
        canvas.tap_area(hit, "Result", lambda: open_detail(_result_detail(b)))
        y = hit.bottom + t.gap // 2
        if r.cards_drawn:
            drawn = ", ".join(f"{side_name(s)} {n}" for s, n in r.cards_drawn.items())
            y = canvas.text(f"Cards drawn: {drawn} (8.10)", (inner.x, y), size=t.small,
                            width=inner.width).bottom + t.gap // 2
    row_h = max(t.small * 2 + 6, t.target + 2)  # each line a finger's target
    shown = b.deployments[-max(0, (inner.bottom - y) // row_h):] if b.deployments else []
    for d in shown:
        if y + row_h > inner.bottom:
            break
        line = canvas.text(deployment_line(d), (inner.x, y), size=t.small,
                           colour=side_colour(d.side), width=inner.width, max_lines=2)
        canvas.tap_area(pygame.Rect(inner.x, y, inner.width, max(line.height, t.target)),
                        deployment_line(d), _deployment_detail(open_detail, d))
        y += row_h


def _deployment_detail(open_detail: Callable[[Detail], None],
                       d: DeploymentShown) -> Callable[[], None]:
    lines = [deployment_line(d), *d.impacts]
    rules = ["8.2.3", "8.3.2", "8.3.3", "8.4.1"]
    if d.card is None:
        rules.append("8.2.4")
    if d.challenged:
        rules.append("8.6.1")
    return lambda: open_detail(Detail("Deployment", tuple(lines), tuple(rules)))


def _track(canvas: Canvas, rect: pygame.Rect, b: Battle,
           open_detail: Callable[[Detail], None]) -> int:
    """The Impact track: both totals above it, a marker for each side, a tick every 7 Impact
    (a loss per 7 Impact suffered, 8.7.1)."""
    t = canvas.theme
    top = max(TRACK_MAX, *(b.impact.get(s, 0) for s in Side))
    y = rect.y
    for side, (x, anchor) in zip(Side, ((rect.x, "topleft"), (rect.right, "topright")),
                                 strict=True):
        value = b.impact.get(side, 0)
        number = canvas.text(f"{side_name(side)} {value}", (x, y), size=t.body, bold=True,
                             colour=side_colour(side), anchor=anchor)
        hit = number.inflate(t.gap, max(0, t.target - number.height))
        canvas.tap_area(hit, f"Impact {side_name(side)}",
                        _bind(open_detail, _impact_detail(b, side)))
    bar = pygame.Rect(rect.x + t.gap, y + t.body + 2 * t.gap, rect.width - 2 * t.gap, t.gap)
    canvas.fill(th.PANEL_HI, bar, radius=t.gap // 2)
    for tick in range(7, top + 1, 7):
        x = bar.x + bar.width * tick // top
        pygame.draw.line(canvas.surface, th.LINE, (x, bar.y - 4), (x, bar.bottom + 4))
    for side, dy in zip(Side, (-1, 1), strict=True):
        value = min(b.impact.get(side, 0), top)
        x = bar.x + bar.width * value // top
        pygame.draw.circle(canvas.surface, side_colour(side),
                           (x, bar.centery + dy * (t.gap // 2 + 5)), t.gap // 2 + 4)
    return bar.bottom + 2 * t.gap


def _bind(open_detail: Callable[[Detail], None], detail: Detail) -> Callable[[], None]:
    return lambda: open_detail(detail)


@dataclass
class ChallengeEntry:
    """A Loyalty Challenge is entered in two taps: who challenges, then whether it was refuted
    (the deploying side shows a card of the block's clan, 8.6.1)."""

    by: Side | None = None


def buttons(b: Battle, do: Callable[[cm.Command], None], entry: ChallengeEntry,
            hand: dict[Side, int]) -> list[Button]:
    """The taps a battle may take now: a Loyalty Challenge (two taps; only with a card in
    hand to play it, 8.6.1) and the finish."""
    found: list[Button] = []
    challenger = b.challenge_by
    if challenger is not None and hand.get(challenger, 0) < 1:
        challenger = None
    if entry.by is not None and challenger is entry.by:
        side = challenger
        deployer = side.opponent
        refutes: list[Button] = [  # 8.6.1: refuted only by a card shown from the hand
            (f"{side_name(deployer)} refutes it (shows a card of that clan)",
             _challenge(do, entry, side, True), th.ACCEPT)] if hand.get(deployer, 0) else []
        return [
            *refutes,
            ("Not refuted: the block changes sides", _challenge(do, entry, side, False),
             th.DANGER),
            ("Cancel the challenge", _choose(entry, None), th.PANEL_HI),
        ]
    entry.by = None
    if challenger is not None:
        found.append((f"{side_name(challenger)} plays a Loyalty Challenge (8.6)",
                      _choose(entry, challenger), th.WARN))
    if b.initiative is not None and b.result is None:
        holder = b.initiative
        found.append((f"{side_name(holder)} has finished (8.5)",
                      lambda: do(cm.Finish(side=holder)), th.ACCEPT))
    return found


def _choose(entry: ChallengeEntry, side: Side | None) -> Callable[[], None]:
    def choose() -> None:
        entry.by = side
    return choose


def _challenge(do: Callable[[cm.Command], None], entry: ChallengeEntry, side: Side,
               refuted: bool) -> Callable[[], None]:
    def challenge() -> None:
        entry.by = None
        do(cm.Challenge(side=side, refuted=refuted))
    return challenge
