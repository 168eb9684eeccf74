-- The monster stat block: every line a player reads, formatted from
-- SRD-shaped data (see ../shared/data/srd5e/*Monsters.json).
-- Globals as upvalues: a global is a table lookup on every use.
local type, tostring, pairs, ipairs, next = type, tostring, pairs, ipairs, next
local companion = require("companion")
local util = require("lib.util")
local text = require("lib.text")
local creature = require("lib.creature")

local monster = {}

local fraction = companion.format.fraction
local number = companion.format.number

-- subtitle: "Medium humanoid (goblinoid), neutral evil".
function monster.subtitle(data)
  local s = util.text(data.size)
  local kind = util.text(data.type)
  if kind ~= "" then
    s = util.join({ s, kind }, " ")
  end
  local sub = util.text(data.subtype)
  if sub ~= "" then
    s = s .. " (" .. sub .. ")"
  end
  local alignment = util.text(data.alignment)
  if alignment ~= "" then
    if s == "" then
      return alignment
    end
    s = s .. ", " .. alignment
  end
  return s
end

-- challenge: "1/4 (50 XP)", "10 (5,900 XP)"; only the rating when no XP is given.
function monster.challenge(data)
  local cr = util.number(data.challenge_rating)
  local rating
  if cr then
    rating = fraction(cr)
  else
    rating = util.text(data.challenge_rating)
  end
  if rating == "" then
    return "", ""
  end
  local xp = util.number(data.xp)
  if xp then
    return rating .. " (" .. number(xp) .. " XP)", rating
  end
  return rating, rating
end

-- proficiency bonus from the data, or from the challenge rating (SRD rule).
local function proficiency_bonus(data)
  local pb = util.number(data.proficiency_bonus)
  if pb then
    return companion.format.signed(pb)
  end
  local cr = util.number(data.challenge_rating)
  if cr == nil then
    return ""
  end
  if cr < 1 then
    cr = 1
  end
  return companion.format.signed(2 + math.floor((math.ceil(cr) - 1) / 4))
end

local function legendary_intro(name, actions)
  if #actions == 0 then
    return ""
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
-- description.
function monster.view(e)
  local data = e.data
  if type(data) ~= "table" or data == companion.null then
    data = {}
  end
  local name = util.text(e.name)
  local saves, skills = creature.proficiencies(data.proficiencies)
  local challenge, rating = monster.challenge(data)
  local legendary = creature.features(data.legendary_actions)

  return {
    subtitle = monster.subtitle(data),
    armor_class = creature.armor_class(data.armor_class),
    hit_points = creature.hit_points(data),
    speed = creature.speed(data.speed),
    abilities = creature.abilities(data),
    saving_throws = util.opt(saves),
    skills = util.opt(skills),
    damage_vulnerabilities = util.opt(creature.damage_list(data.damage_vulnerabilities)),
    damage_resistances = util.opt(creature.damage_list(data.damage_resistances)),
    damage_immunities = util.opt(creature.damage_list(data.damage_immunities)),
    condition_immunities = util.opt(creature.conditions(data.condition_immunities)),
    senses = creature.senses(data.senses),
    languages = creature.languages(data.languages),
    challenge = challenge,
    challenge_rating = rating,
    proficiency_bonus = proficiency_bonus(data),
    description = util.opt(text.blocks(data.desc)),
    special_abilities = util.opt(creature.features(data.special_abilities)),
    actions = creature.features(data.actions),
    legendary_intro = util.opt(legendary_intro(name, legendary)),
    legendary_actions = util.opt(legendary),
    reactions = util.opt(creature.features(data.reactions)),
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
  return util.add_refs(refs, "monster", data.forms)
end

return monster
