-- How an investigator's rolls play. A skill is a percentage: roll 1d100
-- and come in at or under it. A bonus die rolls two and keeps the lower, a
-- penalty die keeps the higher (both cancel out). The result is graded:
-- at or under a fifth of the skill is an extreme success, at or under half
-- a hard one, at or under the skill a regular one; above it a failure, and
-- a roll of 96 or more on a skill under 50 (100 on any) is a blunder. A
-- struggle that succeeds hard or better is telling: its harm follows with
-- an extra die.
local ipairs, type, floor = ipairs, type, math.floor

local rolls = {}

rolls.OPTIONS = {
  { id = "bonus", title = "Bonus die" },
  { id = "penalty", title = "Penalty die" },
  { id = "telling", title = "Telling blow" },
}

rolls.OUTCOMES = {
  { id = "extreme", title = "Extreme success" },
  { id = "hard", title = "Hard success" },
  { id = "regular", title = "Regular success" },
  { id = "failure", title = "Failure" },
  { id = "blunder", title = "Blunder" },
}

rolls.SKILL_OPTIONS = { "bonus", "penalty" }
rolls.HARM_OPTIONS = { "telling" }

local function chosen(list)
  local set = {}
  for _, v in ipairs(list) do
    set[v] = true
  end
  return set
end

-- plan is the roll hook: the formula and the title for the options chosen.
function rolls.plan(r)
  local a, on = r.action, chosen(r.options)
  if a.type == "damage" then
    if on.telling then
      return { roll = a.roll .. "+1d6", title = a.title .. " (telling)" }
    end
    return a.roll
  end
  if on.bonus and not on.penalty then
    return { roll = "2d100kl1", title = a.title .. " (bonus die)" }
  elseif on.penalty and not on.bonus then
    return { roll = "2d100kh1", title = a.title .. " (penalty die)" }
  end
  return "1d100"
end

-- grade names a percentile roll against a skill.
function rolls.grade(total, skill)
  if total >= 100 or (skill < 50 and total >= 96) then
    return "blunder"
  elseif total <= floor(skill / 5) then
    return "extreme"
  elseif total <= floor(skill / 2) then
    return "hard"
  elseif total <= skill then
    return "regular"
  end
  return "failure"
end

-- outcome is the outcome hook: harm rolls are not graded.
function rolls.outcome(r)
  local data = r.action.data
  if type(data) ~= "table" or type(data.skill) ~= "number" then
    return nil
  end
  local grade = rolls.grade(r.roll.total, data.skill)
  if grade == "extreme" or grade == "hard" then
    return { outcome = grade, next = { "telling" } }
  end
  return grade
end

return rolls
