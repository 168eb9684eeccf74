-- The rolls of an investigator's sheet (the actions hook): one check per
-- skill, and for each struggle (a fight, a chase, a shove) the check of
-- its skill followed by its harm.
local type, ipairs = type, ipairs
local gsub, lower = string.gsub, string.lower
local rolls = require("lib.rolls")
local views = require("lib.views")

local sheet = {}

local function slug(name)
  local s = gsub(lower(name), "[^%w]+", "-")
  s = gsub(s, "^%-+", "")
  return (gsub(s, "%-+$", ""))
end

function sheet.actions(e)
  local data = type(e.data) == "table" and e.data or {}
  local out, skill_of = {}, {}
  for _, s in ipairs(views.skills(data)) do
    skill_of[s.name] = s.value
  end
  for _, s in ipairs(type(data.struggles) == "table" and data.struggles or {}) do
    if type(s) == "table" and type(s.name) == "string" and skill_of[s.skill] and type(s.harm) == "string" then
      local id = slug(s.name)
      out[#out + 1] = { id = "struggle-" .. id, title = s.name, type = "attack", roll = "1d100", group = "Struggles",
        options = rolls.SKILL_OPTIONS, follow = "harm-" .. id, data = { skill = skill_of[s.skill] } }
      out[#out + 1] = { id = "harm-" .. id, title = s.name .. " harm", type = "damage", roll = s.harm, group = "Struggles",
        options = rolls.HARM_OPTIONS }
    end
  end
  for _, s in ipairs(views.skills(data)) do
    out[#out + 1] = { id = "skill-" .. slug(s.name), title = s.name .. " (" .. s.value .. "%)", type = "check",
      roll = "1d100", group = "Skills", options = rolls.SKILL_OPTIONS, data = { skill = s.value } }
  end
  return out
end

return sheet
