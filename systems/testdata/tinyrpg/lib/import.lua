-- Turns the monsters of a legacy compendium (Fight Club 5e or Encounter+
-- XML) into creatures. take() removes a field from the element as it is
-- mapped; whatever is left, Companion keeps under data.unmapped.
local companion = require("companion")
local take, list = companion.import.take, companion.import.list
local M = {}

-- "7 (2d6)" -> 7, "2d6"; "7" -> 7, nil.
local function hit_points(text)
  local hp, dice = (text or ""):match("^(%d+)%s*%(([^)]*)%)")
  if hp then
    return tonumber(hp), dice
  end
  return tonumber(text), nil
end

-- "walk 30 ft., swim 20 ft." -> { walk = 30, swim = 20 }
local function speed(text)
  local out = {}
  for part in (text or ""):gmatch("[^,]+") do
    local mode, feet = part:match("(%a*)%s*(%d+)")
    if feet then
      out[mode ~= "" and mode or "walk"] = tonumber(feet)
    end
  end
  return out
end

-- "1/4" -> 0.25, "3" -> 3
local function rating(text)
  local top, bottom = (text or ""):match("^(%d+)/(%d+)$")
  if top then
    return tonumber(top) / tonumber(bottom)
  end
  return tonumber(text) or 0
end

function M.monster(el)
  local hp, dice = hit_points(take(el, "hp"))
  local spells = {}
  for _, name in ipairs(list(take(el, "spell"))) do
    table.insert(spells, (name:lower():gsub("%s+", "-")))
  end
  return {
    kind = "creature",
    name = take(el, "name"),
    data = {
      level = tonumber(take(el, "level")),
      type = take(el, "type"),
      hp = hp,
      hit_dice = dice,
      speed = speed(take(el, "speed")),
      str = tonumber(take(el, "str")),
      dex = tonumber(take(el, "dex")),
      cr = rating(take(el, "cr")),
      xp = tonumber(take(el, "xp")) or 0,
      spells = spells,
    },
  }
end

return M
