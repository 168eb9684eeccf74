-- The spell card, formatted from SRD-shaped data
-- (see ../shared/data/srd5e/*Spells.json).
local companion = require("companion")
local util = require("lib.util")
local text = require("lib.text")
local creature = require("lib.creature")

local spell = {}

-- level_line: "3rd-level evocation", "Evocation cantrip", with " (ritual)".
function spell.level_line(data)
  local school = util.name_of(data.school)
  local level = util.number(data.level)
  local s
  if level == nil then
    s = util.upper_first(school)
  elseif level == 0 then
    s = util.join({ util.upper_first(school), "cantrip" }, " ")
  else
    s = util.join({ companion.format.ordinal(level) .. "-level", school:lower() }, " ")
  end
  if data.ritual == true and s ~= "" then
    s = s .. " (ritual)"
  end
  return s
end

-- components: "V, S, M (a tiny ball of bat guano and sulfur)".
function spell.components(data)
  local list = {}
  for _, c in ipairs(util.list(data.components)) do
    local s = util.text(c)
    if s ~= "" then
      list[#list + 1] = s
    end
  end
  local s = table.concat(list, ", ")
  local material = util.trim(util.text(data.material))
  if material ~= "" and s:find("M", 1, true) then
    s = s .. " (" .. util.lower_first(util.strip_period(material)) .. ")"
  end
  return s
end

-- duration: "Concentration, up to 1 minute" for concentration spells.
function spell.duration(data)
  local d = util.text(data.duration)
  if data.concentration ~= true then
    return d
  end
  if d == "" then
    return "Concentration"
  end
  if d:sub(1, 6):lower() == "up to " then
    return "Concentration, " .. util.lower_first(d)
  end
  return "Concentration, up to " .. util.lower_first(d)
end

local function area(aoe)
  if type(aoe) ~= "table" or util.number(aoe.size) == nil then
    return ""
  end
  return aoe.size .. "-foot " .. util.text(aoe.type)
end

local function save(dc)
  if type(dc) ~= "table" then
    return ""
  end
  local ability = util.name_of(dc.dc_type)
  if ability == "" then
    return ""
  end
  for _, a in ipairs(creature.ABILITIES) do
    if a.short == ability:upper() then
      ability = a.name
    end
  end
  local success = util.text(dc.dc_success)
  if success == "half" then
    return ability .. " (half damage on a success)"
  elseif success == "none" then
    return ability .. " (no effect on a success)"
  end
  return ability
end

-- Lines a spell may lack; the others (level_line, level, school, ritual,
-- concentration, casting_time, range, components, duration, classes,
-- description) are always in the view.
local OPTIONAL = { "subclasses", "area", "save", "damage_type", "higher_level", "details" }

function spell.view(e)
  local data = e.data
  if type(data) ~= "table" or data == companion.null then
    data = {}
  end
  local level = util.number(data.level)
  local damage_type = ""
  if type(data.damage) == "table" then
    damage_type = util.name_of(data.damage.damage_type)
  end
  local v = {
    level_line = spell.level_line(data),
    level = level or 0,
    school = util.upper_first(util.name_of(data.school)),
    ritual = data.ritual == true,
    concentration = data.concentration == true,
    casting_time = util.text(data.casting_time),
    range = util.text(data.range),
    components = spell.components(data),
    duration = spell.duration(data),
    classes = table.concat(util.names(data.classes), ", "),
    subclasses = table.concat(util.names(data.subclasses), ", "),
    area = area(data.area_of_effect),
    save = save(data.dc),
    damage_type = damage_type,
    description = text.blocks(data.desc),
    higher_level = text.blocks(data.higher_level),
  }
  -- "At Higher Levels." leads the first paragraph, as printed in the book.
  local first = v.higher_level[1]
  if first and first.type == "p" and first.lead == nil then
    first.lead = "At Higher Levels."
  end
  local extra = {}
  util.property(extra, "Area", v.area)
  util.property(extra, "Saving Throw", v.save)
  util.property(extra, "Damage", damage_type)
  util.property(extra, "Classes", v.classes)
  -- Rolls of an imported spell ("Acid Damage: 1d6; 2d6 at 5th level").
  for _, r in ipairs(creature.rolls(data.rolls)) do
    util.property(extra, r.label, r.text)
  end
  v.details = extra
  return util.drop_empty(v, OPTIONAL)
end

return spell
