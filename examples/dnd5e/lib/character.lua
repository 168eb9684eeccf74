-- Player characters. The SRD has no character records, so the data reuses
-- the monster field names wherever they mean the same thing (size,
-- alignment, armor_class, hit_points, hit_dice, speed, the six scores,
-- proficiencies, senses, languages, special_abilities, actions,
-- proficiency_bonus) and adds:
--   race         "Hill Dwarf" or {index, name}
--   classes      [{ "name": "Cleric", "level": 3, "subclass": "Life Domain" }]
--   background   "Acolyte"
--   player       the player's name
--   max_hit_points, temp_hit_points   (hit_points is the current value;
--                it and temp_hit_points are kept in step with the
--                character's combatant; temporary_hit_points, an older
--                name, is still read)
--   death_saves  { successes = 0, failures = 0 }, which the player marks
--   experience_points
--   spells       [{ "index": "bless", "name": "Bless", "level": 1 }]
--   equipment    [{ "item": { "index": "mace", "name": "Mace" }, "quantity": 1 }]
local companion = require("companion")
local util = require("lib.util")
local creature = require("lib.creature")
local actions = require("lib.actions")

local character = {}

local number = companion.format.number

-- class_line: "Cleric 3 (Life Domain)", "Fighter 2 / Rogue 1"; and the total level.
function character.class_line(classes)
  local parts, total = {}, 0
  for _, c in ipairs(util.list(classes)) do
    if type(c) == "table" then
      local name = util.name_of(c)
      if name == "" then
        name = util.name_of(c.class)
      end
      local level = util.number(c.level)
      local s = name
      if level then
        total = total + level
        s = util.join({ name, tostring(level) }, " ")
      end
      local sub = util.name_of(c.subclass)
      if sub ~= "" then
        s = s .. " (" .. sub .. ")"
      end
      if s ~= "" then
        parts[#parts + 1] = s
      end
    end
  end
  return table.concat(parts, " / "), total
end

-- hit_points: "24 / 27", "24 / 27 (+5 temporary)".
function character.hit_points(data)
  local current = util.number(data.hit_points)
  local max = util.number(data.max_hit_points)
  local s
  if current and max then
    s = current .. " / " .. max
  elseif current then
    s = tostring(current)
  elseif max then
    s = tostring(max)
  else
    return ""
  end
  local temp = util.number(data.temp_hit_points) or util.number(data.temporary_hit_points)
  if temp and temp > 0 then
    s = s .. " (+" .. temp .. " temporary)"
  end
  return s
end

-- spell_groups: [{ title = "Cantrips", spells = "Light, Sacred Flame" }, { title = "1st level", ... }]
function character.spell_groups(spells)
  local by_level, levels = {}, {}
  for _, s in ipairs(util.list(spells)) do
    local name = util.name_of(s)
    if name ~= "" then
      local level = type(s) == "table" and util.number(s.level) or -1
      if by_level[level] == nil then
        by_level[level] = {}
        levels[#levels + 1] = level
      end
      table.insert(by_level[level], name)
    end
  end
  table.sort(levels)
  local out = {}
  for _, level in ipairs(levels) do
    local title
    if level == 0 then
      title = "Cantrips"
    elseif level < 0 then
      title = "Spells"
    else
      title = companion.format.ordinal(level) .. " level"
    end
    out[#out + 1] = { title = title, spells = table.concat(by_level[level], ", ") }
  end
  return out
end

local function equipment(list)
  local out = {}
  for _, c in ipairs(util.list(list)) do
    local name, q = "", nil
    if type(c) == "table" then
      name = util.name_of(c.item)
      if name == "" then
        name = util.name_of(c)
      end
      q = util.number(c.quantity)
    else
      name = util.text(c)
    end
    if name ~= "" then
      if q and q > 1 then
        name = name .. " ×" .. number(q)
      end
      out[#out + 1] = name
    end
  end
  return table.concat(out, ", ")
end

-- Lines a character may lack; subtitle, level, armor_class, hit_points,
-- speed, abilities, proficiency_bonus, senses and languages are always in
-- the view.
local OPTIONAL = {
  "player", "race", "class_line", "background", "alignment", "hit_dice", "saving_throws", "skills",
  "damage_resistances", "experience", "features", "actions", "spells", "equipment", "spellcasting",
}

local ABILITY_NAMES = {
  strength = "Strength", dexterity = "Dexterity", constitution = "Constitution",
  intelligence = "Intelligence", wisdom = "Wisdom", charisma = "Charisma",
}

-- spellcasting: "Wisdom: spell save DC 13, spell attack +5" for a
-- character of a spellcasting class.
local function spellcasting(data)
  local ability = actions.casting_ability(data.classes)
  if not ability then
    return ""
  end
  local score = util.number(data[ability])
  local mod = score and math.floor((score - 10) / 2) or 0
  local bonus = actions.proficiency_bonus(data) + mod
  return ABILITY_NAMES[ability] .. ": spell save DC " .. (8 + bonus) .. ", spell attack " .. companion.format.signed(bonus)
end

function character.view(e)
  local data = e.data
  if type(data) ~= "table" or data == companion.null then
    data = {}
  end
  local class_line, level = character.class_line(data.classes)
  local race = util.name_of(data.race)
  local alignment = util.text(data.alignment)
  local subtitle = util.join({ race, class_line }, " ")
  if alignment ~= "" then
    subtitle = util.join({ subtitle, alignment }, ", ")
  end
  local saves, skills = creature.proficiencies(data.proficiencies)
  local pb = util.number(data.proficiency_bonus)
  if pb == nil and level > 0 then
    pb = 2 + math.floor((level - 1) / 4)
  end

  local v = {
    subtitle = subtitle,
    player = util.text(data.player),
    race = race,
    class_line = class_line,
    level = level,
    background = util.name_of(data.background),
    alignment = alignment,
    armor_class = creature.armor_class(data.armor_class),
    hit_points = character.hit_points(data),
    hit_dice = util.text(data.hit_dice),
    speed = creature.speed(data.speed),
    abilities = creature.abilities(data),
    proficiency_bonus = pb and companion.format.signed(pb) or "",
    saving_throws = saves,
    skills = skills,
    senses = creature.senses(data.senses),
    languages = creature.languages(data.languages),
    experience = "",
    damage_resistances = "",
    features = creature.features(data.special_abilities),
    actions = creature.features(data.actions),
    spells = character.spell_groups(data.spells),
    equipment = equipment(data.equipment),
    spellcasting = spellcasting(data),
  }
  if util.number(data.experience_points) then
    v.experience = number(data.experience_points) .. " XP"
  end
  v.damage_resistances = creature.damage_list(data.damage_resistances)
  return util.drop_empty(v, OPTIONAL)
end

character.actions = actions.of

function character.references(e)
  local data = e.data
  if type(data) ~= "table" then
    return {}
  end
  local refs = util.add_refs({}, "spell", data.spells)
  return util.add_refs(refs, "item", data.equipment, "item")
end

return character
