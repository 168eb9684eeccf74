-- Character options: races, classes, feats and backgrounds (imported from
-- Fight Club 5e compendiums, or written by hand). Their data:
--
--   race        size, speed (feet), speed_other, ability_bonuses
--               [{ability = "DEX", bonus = 2}], proficiencies, weapons,
--               armor, tools, languages, spell_ability, damage_resistances,
--               damage_immunities, damage_vulnerabilities,
--               condition_immunities, traits [{name, desc, rolls}],
--               display_name, ancestry
--   class       hit_die (6, 8, 10, 12), proficiencies (saving throws and
--               skills to choose from), num_skills, armor, weapons, tools,
--               wealth ("2d4x10"), spell_ability, slots_reset ("L", "S"),
--               traits, levels [{level, features [{name, desc, optional,
--               rolls}], slots [cantrips, 1st, 2nd...], counters [{name,
--               value, reset}], score_improvement}]
--   feat        prerequisite, desc (paragraphs), proficiencies, special,
--               modifiers [{category, text}], rolls
--   background  proficiencies, tools, languages, traits
--
-- Texts are paragraphs (lib/text.lua); features and traits read like a
-- monster's (lib/creature.lua: name, first paragraph, further blocks).
local companion = require("companion")
local util = require("lib.util")
local text = require("lib.text")
local creature = require("lib.creature")

local options = {}

local ordinal = companion.format.ordinal
local signed = companion.format.signed

local function data_of(e)
  local data = e.data
  if type(data) ~= "table" or data == companion.null then
    return {}
  end
  return data
end

-- bonuses: "Dex +2, Wis +1".
local function bonuses(list)
  local out = {}
  for _, b in ipairs(util.list(list)) do
    if type(b) == "table" and util.number(b.bonus) then
      local ability = util.name_of(b.ability)
      out[#out + 1] = util.upper_first(ability:lower()) .. " " .. signed(b.bonus)
    end
  end
  return table.concat(out, ", ")
end

local function feet(v)
  if util.number(v) then
    return v .. " ft."
  end
  return util.text(v)
end

-- The keys the race view may leave out.
local RACE_OPTIONAL = { "ability_scores", "speed", "size", "proficiencies", "languages", "damage_resistances",
  "damage_immunities", "traits", "details" }

function options.race(e)
  local data = data_of(e)
  local size = util.text(data.size)
  local v = {
    subtitle = util.join({ size, "race" }, " "),
    ability_scores = bonuses(data.ability_bonuses),
    size = size,
    speed = util.join({ feet(data.speed), util.text(data.speed_other) }, ", "),
    proficiencies = util.join({ util.text(data.proficiencies), util.text(data.weapons), util.text(data.armor), util.text(data.tools) }, "; "),
    languages = util.text(data.languages),
    damage_resistances = creature.damage_list(data.damage_resistances),
    damage_immunities = creature.damage_list(data.damage_immunities),
    traits = creature.features(data.traits),
  }
  local rows = {}
  util.property(rows, "Ability Score Increase", v.ability_scores)
  util.property(rows, "Size", v.size)
  util.property(rows, "Speed", v.speed)
  util.property(rows, "Proficiencies", v.proficiencies)
  util.property(rows, "Languages", v.languages)
  util.property(rows, "Damage Resistances", v.damage_resistances)
  util.property(rows, "Damage Immunities", v.damage_immunities)
  util.property(rows, "Spellcasting Ability", util.text(data.spell_ability))
  v.details = rows
  return util.drop_empty(v, RACE_OPTIONAL)
end

-- slots_line: "1st 4, 2nd 3, 3rd 2" (cantrips first when given).
local function slots_line(slots)
  local out = {}
  for i, n in ipairs(util.list(slots)) do
    if util.number(n) and n > 0 then
      if i == 1 then
        out[#out + 1] = n .. " cantrips"
      else
        out[#out + 1] = ordinal(i - 1) .. " " .. n
      end
    end
  end
  return table.concat(out, ", ")
end

local CLASS_OPTIONAL = { "hit_die", "proficiencies", "armor", "weapons", "tools", "wealth", "spellcasting", "traits", "levels", "details" }

function options.class(e)
  local data = data_of(e)
  local die = util.number(data.hit_die)
  local v = {
    subtitle = die and ("Class, d" .. die .. " hit die") or "Class",
    hit_die = die and ("d" .. die) or "",
    proficiencies = util.text(data.proficiencies),
    armor = util.text(data.armor),
    weapons = util.text(data.weapons),
    tools = util.text(data.tools),
    wealth = util.dice_text(util.text(data.wealth)),
    spellcasting = util.text(data.spell_ability),
    traits = creature.features(data.traits),
  }
  local skills = util.number(data.num_skills)
  local levels = {}
  for _, l in ipairs(util.list(data.levels)) do
    if type(l) == "table" then
      local level = util.number(l.level) or 0
      local entry = { level = level, title = "Level " .. level, features = creature.features(l.features) }
      for i, f in ipairs(util.list(l.features)) do
        if type(f) == "table" and f.optional == true and entry.features[i] then
          entry.features[i].name = entry.features[i].name .. " (optional)"
        end
      end
      local notes = {}
      if l.score_improvement == true then
        notes[#notes + 1] = "Ability Score Improvement"
      end
      local slots = slots_line(l.slots)
      if slots ~= "" then
        notes[#notes + 1] = "Spell slots: " .. slots
      end
      for _, c in ipairs(util.list(l.counters)) do
        if type(c) == "table" and util.text(c.name) ~= "" then
          local reset = ({ L = "long rest", S = "short rest" })[util.text(c.reset)]
          notes[#notes + 1] = util.text(c.name) .. ": " .. util.text(c.value) .. (reset and (" per " .. reset) or "")
        end
      end
      entry.notes = table.concat(notes, " · ")
      if #entry.features > 0 or entry.notes ~= "" then
        levels[#levels + 1] = util.drop_empty(entry, { "features", "notes" })
      end
    end
  end
  v.levels = levels
  local rows = {}
  util.property(rows, "Hit Die", v.hit_die)
  util.property(rows, "Proficiencies", v.proficiencies)
  if skills then
    util.property(rows, "Skills", "choose " .. skills)
  end
  util.property(rows, "Armor", v.armor)
  util.property(rows, "Weapons", v.weapons)
  util.property(rows, "Tools", v.tools)
  util.property(rows, "Starting Wealth", v.wealth ~= "" and (v.wealth .. " gp") or "")
  util.property(rows, "Spellcasting Ability", v.spellcasting)
  v.details = rows
  return util.drop_empty(v, CLASS_OPTIONAL)
end

-- rolls_line: "Heal: 1d8 + 2" lines of the rolls a text offers.
local function roll_rows(rows, rolls)
  for _, r in ipairs(creature.rolls(rolls)) do
    util.property(rows, r.label, r.text)
  end
end

local FEAT_OPTIONAL = { "prerequisite", "description", "details" }

function options.feat(e)
  local data = data_of(e)
  local v = {
    subtitle = "Feat",
    prerequisite = util.text(data.prerequisite),
    description = text.blocks(data.desc),
  }
  local rows = {}
  util.property(rows, "Proficiencies", util.text(data.proficiencies))
  util.property(rows, "Special", util.text(data.special))
  roll_rows(rows, data.rolls)
  v.details = rows
  return util.drop_empty(v, FEAT_OPTIONAL)
end

local BACKGROUND_OPTIONAL = { "traits", "details" }

function options.background(e)
  local data = data_of(e)
  local v = { subtitle = "Background", traits = creature.features(data.traits) }
  local rows = {}
  util.property(rows, "Skill Proficiencies", util.text(data.proficiencies))
  util.property(rows, "Tool Proficiencies", util.text(data.tools))
  util.property(rows, "Languages", util.text(data.languages))
  v.details = rows
  return util.drop_empty(v, BACKGROUND_OPTIONAL)
end

return options
