"""Hostile replies, each with the score it must get, in the three question forms.

One table for every reader of replies: the API's ``score_answer`` (and so reasoning-gym's),
``eval``'s line scorer and the quiz's open form (tests/test_hostile_replies.py runs each
case through each of them).  A case is ``(reply, gold, score)``; the choice cases are
scored against :data:`CHOICES`.  docs/SCORING.md describes the rules these cases hold.
"""

from __future__ import annotations

CHOICES = ["2", "6", "5", "All three other options are incorrect"]
CYRILLIC_O, CYRILLIC_I, CYRILLIC_E = "\u043e", "\u0456", "\u0435"
ZERO_WIDTH = "\u200b"
LONG_REASONING = "Let me look at the picture again. " * 6000  # ~200,000 characters
LOOPING = "the answer is " * 20000
BOARD = "blue 3,1,up; red 1,2,left"

OPEN = [
    # plain statements of the key, in the documented places
    ("<answer>right</answer>", "right", 1),
    ("The answer is right.", "right", 1),
    ("\\boxed{\\text{right}}", "right", 1),
    ("right", "right", 1),
    ("<answer>Rack G moves right.</answer>", "right", 1),
    ('<answer>"right"</answer>', "right", 1),
    ("<answer>\uff52\uff49\uff47\uff48\uff54</answer>", "right", 1),  # full-width letters
    ("<think>It moves left.</think><answer>right</answer>", "right", 1),
    (LONG_REASONING + "<answer>right</answer>", "right", 1),
    ("<answer>counter-clockwise</answer>", "counterclockwise", 1),
    ("Answer: anticlockwise", "counterclockwise", 1),
    ("<answer>cannot move</answer>", "cannot move", 1),
    ("The answer is: nothing can move.", "cannot move", 1),
    ("<answer>Gear F</answer>", "F", 1),
    ("<answer>7</answer>", "7", 1),
    ("<answer>7, because the hidden column cannot hold more</answer>", "7", 1),
    ("<answer>6, 8</answer>", "6,8", 1),
    (f"<answer>{BOARD}</answer>", BOARD, 1),
    ("<answer>red</answer>", "red", 1),
    # negated keys
    ("not right", "right", 0),
    ("It does not turn right.", "right", 0),
    ("<answer>not right</answer>", "right", 0),
    ("The answer is: it doesn't move right.", "right", 0),
    ("<answer>It never moves right</answer>", "right", 0),
    ("<answer>right is wrong</answer>", "right", 0),
    ("<answer>right, which is incorrect</answer>", "right", 0),
    ("<answer>not clockwise</answer>", "counterclockwise", 0),
    ("<answer>It can move clockwise</answer>", "cannot move", 0),
    ("<answer>not F</answer>", "F", 0),
    ("<answer>not 7</answer>", "7", 0),
    ("<answer>not red</answer>", "red", 0),
    ("<answer>blue 3,1,up; red 1,2,not left</answer>", BOARD, 0),
    # two or more answers, hedges
    ("cannot move or right", "right", 0),
    ("<answer>left or right</answer>", "right", 0),
    ("<answer>right and left</answer>", "right", 0),
    ("<answer>left, right</answer>", "right", 0),
    ("<answer>either right or left</answer>", "right", 0),
    ("<answer>maybe right</answer>", "right", 0),
    ("<answer>probably right</answer>", "right", 0),
    ("<answer>I'm not sure, right</answer>", "right", 0),
    ("<answer>Gear F turns counterclockwise, not clockwise.</answer>", "counterclockwise", 0),
    ("<answer>cannot move clockwise</answer>", "cannot move", 0),
    ("<answer>F or G</answer>", "F", 0),
    ("<answer>F and G</answer>", "F", 0),
    ("<answer>7 or 8</answer>", "7", 0),
    ("<answer>red or blue</answer>", "red", 0),
    # questions and quotations
    ("<answer>Does it move right?</answer>", "right", 0),
    ("The answer is right? No, left.", "right", 0),
    ("<answer>7? 8?</answer>", "7", 0),
    ('<answer>Some would say "right" here</answer>', "right", 0),
    # the key in the reasoning, another in the answer
    ("<think>It moves right.</think><answer>left</answer>", "right", 0),
    ("<think>F turns fastest</think><answer>G</answer>", "F", 0),
    # look-alikes and hidden characters
    (f"<answer>r{CYRILLIC_I}ght</answer>", "right", 0),
    (f"<answer>n{CYRILLIC_O}t right</answer>", "right", 0),
    (f"<answer>n{ZERO_WIDTH}ot right</answer>", "right", 0),
    ("<answer>r\u00edght</answer>", "right", 0),
    # very long answers and loops
    ("<answer>" + "right " * 300 + "</answer>", "right", 0),
    (LOOPING, "right", 0),
]

JUDGE = [
    ("yes", "yes", 1),
    ("Yes.", "yes", 1),
    ("<answer>YES</answer>", "yes", 1),
    ("\\boxed{\\text{yes}}", "yes", 1),
    ("The answer is yes.", "yes", 1),
    ("No, it is not a rotation.", "no", 1),
    ("Final answer: no, it is mirrored.", "no", 1),
    ("<answer>I'd say yes, it is not mirrored</answer>", "yes", 1),
    ("<think>yes</think><answer>no</answer>", "no", 1),
    (LONG_REASONING + "<answer>no</answer>", "no", 1),
    # negated keys
    ("not yes", "yes", 0),
    ("The answer is not yes.", "yes", 0),
    ("<answer>not yes</answer>", "yes", 0),
    ("<answer>It isn't yes</answer>", "yes", 0),
    ("<answer>yes, that's wrong</answer>", "yes", 0),
    ("<answer>yes is incorrect</answer>", "yes", 0),
    ("<answer>Not no</answer>", "yes", 0),
    ("<answer>Not no</answer>", "no", 0),
    ("<answer>never yes</answer>", "yes", 0),
    ("No, it is mirrored.", "yes", 0),
    ("<answer>no</answer>", "yes", 0),
    # both, hedges
    ("<answer>yes or no</answer>", "yes", 0),
    ("<answer>yes or no</answer>", "no", 0),
    ("<answer>yes and no</answer>", "yes", 0),
    ("yes no", "yes", 0),
    ("<answer>maybe yes</answer>", "yes", 0),
    ("<answer>probably no</answer>", "no", 0),
    ("<answer>yes (not certain)</answer>", "yes", 0),
    ("<answer>perhaps</answer>", "yes", 0),
    # questions and quotations
    ("<answer>Yes? No.</answer>", "yes", 0),
    ("<answer>Is it yes?</answer>", "yes", 0),
    ('<answer>Someone would answer "yes"</answer>', "yes", 0),
    # the key in the reasoning, another in the answer
    ("<think>yes</think><answer>no</answer>", "yes", 0),
    ("<think>The answer is yes.</think><answer>no</answer>", "yes", 0),
    # look-alikes and hidden characters
    (f"<answer>y{CYRILLIC_E}s</answer>", "yes", 0),
    (f"<answer>n{ZERO_WIDTH}ot yes</answer>", "yes", 0),
    (f"<answer>n{CYRILLIC_O}t yes</answer>", "yes", 0),
    ("<answer>nope</answer>", "no", 0),
    # very long answers and loops
    ("<answer>" + "yes " * 400 + "</answer>", "yes", 0),
    ("yes " * 50_000, "yes", 0),
    (LOOPING, "yes", 0),
]

CHOICE = [
    ("B", "B", 1),
    ("<answer>B</answer>", "B", 1),
    ("\\boxed{B}", "B", 1),
    ("The answer is B.", "B", 1),
    ("(B)", "B", 1),
    ('The answer is "B".', "B", 1),
    ("the answer is 6", "B", 1),
    ("Option A is wrong, option C is wrong, so the answer is B", "B", 1),
    ("Answer: B\n\nExplanation: the correct answer cannot be A because A is mirrored.", "B", 1),
    ("<think>At first the answer is A, but the top view rules it out.</think><answer>B"
     "</answer>", "B", 1),
    (LONG_REASONING + "<answer>B</answer>", "B", 1),
    # negated keys
    ("<answer>not B</answer>", "B", 0),
    ("Final answer: B is incorrect", "B", 0),
    ("Answer: B, which is wrong", "B", 0),
    ("I would not choose B", "B", 0),
    ("The answer cannot be B", "B", 0),
    ("It is not B", "B", 0),
    ("Not B.", "B", 0),
    ("the answer is not 6", "B", 0),
    ("Final answer: B. Final answer: not B", "B", 0),
    ("The answer is not A, it is B", "A", 0),
    ("The correct answer is neither A nor B", "B", 0),
    # several letters, hedges
    ("A or B", "B", 0),
    ("The answer is B or C.", "B", 0),
    ("<answer>B, C</answer>", "B", 0),
    ("Both B and C fit the front view.", "B", 0),
    ("<answer>maybe B</answer>", "B", 0),
    ("Answer: probably B", "B", 0),
    ("<answer>B (not sure)</answer>", "B", 0),
    ("Final answer: either A or B", "B", 0),
    # questions and quotations
    ("The answer is B? Or C", "B", 0),
    ("choose B? no", "B", 0),
    ('<answer>Some would pick "B"</answer>', "B", 0),
    # the key in the reasoning, another in the answer
    ("<think>The answer is B.</think><answer>C</answer>", "B", 0),
    ("I think the answer is B. Final answer: C", "B", 0),
    # look-alikes
    ("<answer>\u0412</answer>", "B", 0),  # Cyrillic capital Ve
    (f"<answer>n{CYRILLIC_O}t B</answer>", "B", 0),
    (f"<answer>n{ZERO_WIDTH}ot B</answer>", "B", 0),
    # very long answers and loops
    ("(A) " * 100_000, "B", 0),
    (LOOPING, "B", 0),
]
