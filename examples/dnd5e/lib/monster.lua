-- The monster stat block: every line a player reads, formatted from
-- SRD-shaped data (see ../shared/data/srd5e/*Monsters.json).
-- Globals as upvalues: a global is a table lookup on every use.
local type, tostring, pairs, ipairs, next = type, tostring, pairs, ipairs, next
local companion = require("companion")
local util = require("lib.util")
local text = require("lib.text")
local creature = require("lib.creature")

local monster = {}

-- Module functions as locals: a call through a module table reads it
-- through its read-only proxy, two lookups more per call.
local fraction = companion.format.fraction
local number = companion.format.number
local signed = companion.format.signed
local null = companion.null
local floor, ceil = math.floor, math.ceil
local concat = table.concat
local text_of, opt = util.text, util.opt
local blocks = text.blocks
local features, damage_list = creature.features, creature.damage_list
local armor_class, hit_points, speed = creature.armor_class, creature.hit_points, creature.speed
local abilities, conditions = creature.abilities, creature.conditions
local senses, languages, proficiencies = creature.senses, creature.languages, creature.proficiencies

-- subtitle: "Medium humanoid (goblinoid), neutral evil".
local function subtitle(data)
  local s = text_of(data.size)
  local kind = text_of(data.type)
  if kind ~= "" then
    s = s == "" and kind or s .. " " .. kind -- util.join({ s, kind }, " ")
  end
  local sub = text_of(data.subtype)
  if sub ~= "" then
    s = s .. " (" .. sub .. ")"
  end
  local alignment = text_of(data.alignment)
  if alignment ~= "" then
    if s == "" then
      return alignment
    end
    s = s .. ", " .. alignment
  end
  return s
end
monster.subtitle = subtitle

-- challenge: "1/4 (50 XP)", "10 (5,900 XP)"; only the rating when no XP is given.
local function challenge(data)
  local cr = data.challenge_rating
  local rating
  if type(cr) == "number" then
    rating = fraction(cr)
  else
    rating = text_of(cr)
  end
  if rating == "" then
    return "", ""
  end
  local xp = data.xp
  if type(xp) == "number" then
    return rating .. " (" .. number(xp) .. " XP)", rating
  end
  return rating, rating
end
monster.challenge = challenge

-- proficiency bonus from the data, or from the challenge rating (SRD rule).
local function proficiency_bonus(data)
  local pb = data.proficiency_bonus
  if type(pb) == "number" then
    return signed(pb)
  end
  local cr = data.challenge_rating
  if type(cr) ~= "number" then
    return ""
  end
  if cr < 1 then
    cr = 1
  end
  return signed(2 + floor((ceil(cr) - 1) / 4))
end

local function legendary_intro(name, actions, desc)
  if actions == nil or #actions == 0 then
    return ""
  end
  if type(desc) == "string" and desc ~= "" then
    return desc -- the source's own introduction ("can take 4 legendary actions")
  end
  local who = "The " .. (name ~= "" and name:lower() or "creature")
  return who .. " can take 3 legendary actions, choosing from the options below. " ..
    "Only one legendary action option can be used at a time and only at the end of another creature's turn. " ..
    who .. " regains spent legendary actions at the start of its turn."
end

-- view: the stat block (size, type and alignment are in the subtitle and,
-- as stored, in the list rows). Always present: subtitle, armor_class,
-- hit_points, speed, abilities, senses, languages, challenge,
-- challenge_rating, proficiency_bonus, actions. Present only when the
-- monster has them: saving_throws, skills, damage_vulnerabilities,
-- damage_resistances, damage_immunities, condition_immunities,
-- special_abilities, legendary_intro, legendary_actions, reactions,
-- lair_actions, spells, spell_slots, description (the last four mostly
-- from imported compendiums: lib/import/monster.lua).
-- opt_features is util.opt(creature.features(list)) without building the
-- empty list first: most monsters have no reactions, no legendary actions.
local function opt_features(list)
  if type(list) ~= "table" or #list == 0 then
    return nil
  end
  return opt(features(list))
end

function monster.view(e)
  local data = e.data
  if type(data) ~= "table" or data == null then
    data = {}
  end
  local name = text_of(e.name)
  local saves, skills = proficiencies(data.proficiencies)
  local challenge_line, rating = challenge(data)
  local legendary = opt_features(data.legendary_actions)
  local desc = data.desc

  -- The optional lines that are strings: util.opt without the call.
  local vulnerabilities = damage_list(data.damage_vulnerabilities)
  local resistances = damage_list(data.damage_resistances)
  local immunities = damage_list(data.damage_immunities)
  local condition_immunities = conditions(data.condition_immunities)
  local intro = legendary_intro(name, legendary, data.legendary_desc)
  local spells, slots
  if data.spells ~= nil then
    spells = concat(util.names(data.spells), ", ")
  end
  if data.spell_slots ~= nil then
    slots = creature.slots_line(data.spell_slots)
  end

  return {
    subtitle = subtitle(data),
    armor_class = armor_class(data.armor_class),
    hit_points = hit_points(data),
    speed = speed(data.speed),
    abilities = abilities(data),
    saving_throws = saves ~= "" and saves or nil,
    skills = skills ~= "" and skills or nil,
    damage_vulnerabilities = vulnerabilities ~= "" and vulnerabilities or nil,
    damage_resistances = resistances ~= "" and resistances or nil,
    damage_immunities = immunities ~= "" and immunities or nil,
    condition_immunities = condition_immunities ~= "" and condition_immunities or nil,
    senses = senses(data.senses),
    languages = languages(data.languages),
    challenge = challenge_line,
    challenge_rating = rating,
    proficiency_bonus = proficiency_bonus(data),
    description = desc ~= nil and opt(blocks(desc)) or nil,
    special_abilities = opt_features(data.special_abilities),
    actions = features(data.actions),
    legendary_intro = intro ~= "" and intro or nil,
    legendary_actions = legendary,
    reactions = opt_features(data.reactions),
    lair_actions = opt_features(data.lair_actions),
    spells = spells ~= "" and spells or nil,
    spell_slots = slots ~= "" and slots or nil,
  }
end

function monster.references(e)
  local data = e.data
  if type(data) ~= "table" then
    return {}
  end
  local refs, seen = {}, {}
  creature.spell_refs(data.special_abilities, refs, seen)
  creature.spell_refs(data.actions, refs, seen)
  -- The spell list of an imported monster (lib/import/monster.lua).
  for _, s in ipairs(util.list(data.spells)) do
    local slug = util.ref_slug(s)
    if slug ~= "" and not seen[slug] then
      seen[slug] = true
      refs[#refs + 1] = "spell." .. slug
    end
  end
  return util.add_refs(refs, "monster", data.forms)
end

return monster
