-- The rolls a character can make from their sheet (the actions hook of
-- companion.entity): the six ability checks and saving throws, the
-- eighteen skills, each attack of the character's actions with its damage,
-- the spell attack of a spellcasting class, and a death saving throw when
-- the character is down. Bonuses come from the data as the sheet shows
-- them: an ability's modifier, or the value of a saving throw or skill
-- proficiency (which already adds the proficiency bonus).
--
-- How they roll is here too (the kind's roll and outcome hooks): a d20
-- roll may take advantage or disadvantage (two d20, the higher or the
-- lower kept); an attack's d20 hits critically on a natural 20 and misses
-- on a natural 1; the damage of a critical hit rolls twice the dice.
local type, ipairs, tostring, tonumber = type, ipairs, tostring, tonumber
local companion = require("companion")
local util = require("lib.util")

local actions = {}

local null = companion.null
local signed = companion.format.signed
local name_of, list_of = util.name_of, util.list
local floor = math.floor
local find, sub, lower, match, gsub = string.find, string.sub, string.lower, string.match, string.gsub

local ABILITIES = {
  { key = "strength", short = "STR", name = "Strength" },
  { key = "dexterity", short = "DEX", name = "Dexterity" },
  { key = "constitution", short = "CON", name = "Constitution" },
  { key = "intelligence", short = "INT", name = "Intelligence" },
  { key = "wisdom", short = "WIS", name = "Wisdom" },
  { key = "charisma", short = "CHA", name = "Charisma" },
}

local SKILLS = {
  { "Acrobatics", "dexterity" }, { "Animal Handling", "wisdom" }, { "Arcana", "intelligence" },
  { "Athletics", "strength" }, { "Deception", "charisma" }, { "History", "intelligence" },
  { "Insight", "wisdom" }, { "Intimidation", "charisma" }, { "Investigation", "intelligence" },
  { "Medicine", "wisdom" }, { "Nature", "intelligence" }, { "Perception", "wisdom" },
  { "Performance", "charisma" }, { "Persuasion", "charisma" }, { "Religion", "intelligence" },
  { "Sleight of Hand", "dexterity" }, { "Stealth", "dexterity" }, { "Survival", "wisdom" },
}

-- The ability each spellcasting class casts with.
local CASTING = {
  artificer = "intelligence", bard = "charisma", cleric = "wisdom", druid = "wisdom", paladin = "charisma",
  ranger = "wisdom", sorcerer = "charisma", warlock = "charisma", wizard = "intelligence",
}

-- The options a roll offers (the kind's rollOptions): a d20 roll's
-- advantage and disadvantage, the doubled dice of a critical hit's damage.
actions.OPTIONS = {
  { id = "advantage", title = "Advantage" },
  { id = "disadvantage", title = "Disadvantage" },
  { id = "critical", title = "Critical hit" },
}
local D20_OPTIONS = { "advantage", "disadvantage" }
local DAMAGE_OPTIONS = { "critical" }

-- What an attack's roll may come to (the kind's outcomes).
actions.OUTCOMES = {
  { id = "critical", title = "critical hit!" },
  { id = "fumble", title = "a natural 1" },
}

-- The lowest d20 face that hits critically.
local CRITICAL_AT = 20

local function modifier(score)
  if type(score) ~= "number" then
    return 0
  end
  return floor((score - 10) / 2)
end

-- d20 is a d20 roll with a bonus: "1d20+3", "1d20-1", "1d20".
local function d20(bonus)
  if bonus == 0 then
    return "1d20"
  end
  return "1d20" .. signed(bonus)
end

-- slug makes an id part of a name: "Light Crossbow" -> "light-crossbow".
local function slug(name)
  local s = gsub(lower(name), "[^%w]+", "-")
  s = gsub(s, "^%-+", "")
  return (gsub(s, "%-+$", ""))
end

-- proficiency_values reads "Saving Throw: WIS" and "Skill: Insight"
-- proficiencies into two tables of their values.
local function proficiency_values(list)
  local saves, skills = {}, {}
  for _, p in ipairs(list_of(list)) do
    if type(p) == "table" and type(p.value) == "number" then
      local name = name_of(p.proficiency)
      if find(name, "Saving Throw: ", 1, true) == 1 then
        saves[sub(name, 15)] = p.value
      elseif find(name, "Skill: ", 1, true) == 1 then
        skills[sub(name, 8)] = p.value
      end
    end
  end
  return saves, skills
end

-- dice_in reads the damage dice of an attack's text, "(1d8 + 2)" ->
-- "1d8+2", and the damage type after it.
local function dice_in(desc)
  local dice, rest = match(desc, "%((%d+d%d+[%d%s%+%-]*)%)(.*)")
  if not dice then
    return nil, nil
  end
  return (gsub(dice, "%s+", "")), match(rest, "^%s*(%a+)")
end

-- attack_of reads one of the character's actions as an attack: the SRD's
-- attack_bonus and damage list, or the "+4 to hit" and "(1d8 + 2)" of its
-- text. nil when it is no attack.
local function attack_of(a)
  local desc = type(a.desc) == "string" and a.desc or ""
  local bonus = a.attack_bonus
  if type(bonus) ~= "number" then
    local written = match(desc, "([%+%-]%d+) to hit")
    bonus = written and tonumber(written)
  end
  if type(bonus) ~= "number" then
    return nil
  end
  local dice, kind
  for _, d in ipairs(list_of(a.damage)) do
    if type(d) == "table" and type(d.damage_dice) == "string" then
      dice, kind = gsub(d.damage_dice, "%s+", ""), name_of(d.damage_type)
      break
    end
  end
  if dice == nil then
    dice, kind = dice_in(desc)
  end
  return bonus, dice, kind
end

-- class_levels returns the spellcasting ability of the character's first
-- spellcasting class.
local function casting_ability(classes)
  for _, c in ipairs(list_of(classes)) do
    if type(c) == "table" then
      local name = name_of(c)
      if name == "" then
        name = name_of(c.class)
      end
      local ability = CASTING[lower(name)]
      if ability then
        return ability
      end
    end
  end
  return nil
end

-- proficiency_bonus is the data's, or the one of the character's level.
local function proficiency_bonus(data)
  if type(data.proficiency_bonus) == "number" then
    return data.proficiency_bonus
  end
  local level = 0
  for _, c in ipairs(list_of(data.classes)) do
    if type(c) == "table" and type(c.level) == "number" then
      level = level + c.level
    end
  end
  if level < 1 then
    return 2
  end
  return 2 + floor((level - 1) / 4)
end
actions.proficiency_bonus = proficiency_bonus
actions.casting_ability = casting_ability

function actions.of(e)
  local data = e.data
  if type(data) ~= "table" or data == null then
    data = {}
  end
  local out = {}
  local function add(a)
    out[#out + 1] = a
  end
  local saves, skills = proficiency_values(data.proficiencies)
  local mods = {}
  for _, a in ipairs(ABILITIES) do
    mods[a.key] = modifier(data[a.key])
  end

  -- Attacks first: what a player taps most in a fight.
  local used = {}
  for _, a in ipairs(list_of(data.actions)) do
    if type(a) == "table" and type(a.name) == "string" and a.name ~= "" then
      local bonus, dice, kind = attack_of(a)
      if bonus then
        local id = slug(a.name)
        if id == "" or used[id] then
          id = id .. "-" .. tostring(#out + 1)
        end
        used[id] = true
        local attack = { id = "attack-" .. id, title = a.name .. " attack", type = "attack", roll = d20(bonus), group = "Attacks", options = D20_OPTIONS }
        if dice then
          local title = a.name .. " damage"
          if kind and kind ~= "" then
            title = title .. " (" .. lower(kind) .. ")"
          end
          attack.follow = "damage-" .. id
          add(attack)
          add({ id = "damage-" .. id, title = title, type = "damage", roll = dice, group = "Attacks", options = DAMAGE_OPTIONS })
        else
          add(attack)
        end
      end
    end
  end

  local casting = casting_ability(data.classes)
  if casting then
    local bonus = proficiency_bonus(data) + mods[casting]
    add({ id = "spell-attack", title = "Spell attack", type = "attack", roll = d20(bonus), group = "Spells", options = D20_OPTIONS })
  end

  for _, a in ipairs(ABILITIES) do
    add({ id = "check-" .. sub(a.key, 1, 3), title = a.name .. " check", type = "check", roll = d20(mods[a.key]), group = "Ability checks", options = D20_OPTIONS })
  end
  for _, a in ipairs(ABILITIES) do
    local bonus = saves[a.short]
    if bonus == nil then
      bonus = mods[a.key]
    end
    add({ id = "save-" .. sub(a.key, 1, 3), title = a.name .. " saving throw", type = "save", roll = d20(bonus), group = "Saving throws", options = D20_OPTIONS })
  end
  for _, s in ipairs(SKILLS) do
    local bonus = skills[s[1]]
    if bonus == nil then
      bonus = mods[s[2]]
    end
    add({ id = "skill-" .. slug(s[1]), title = s[1], type = "check", roll = d20(bonus), group = "Skills", options = D20_OPTIONS })
  end

  if type(data.hit_points) == "number" and data.hit_points <= 0 then
    add({ id = "death-save", title = "Death saving throw", type = "save", roll = "1d20", group = "Death saves", options = D20_OPTIONS })
  end
  return out
end

local function set_of(list)
  local set = {}
  for _, v in ipairs(list) do
    set[v] = true
  end
  return set
end

-- roll is the formula and title of an action with the options chosen.
-- Every d20 roll of the sheet starts with its 1d20 (d20 above), which
-- advantage turns into 2d20kh1 and disadvantage into 2d20kl1 (both: a
-- straight roll); an attack marks it critical on CRITICAL_AT and up and a
-- miss on a 1. A critical hit's damage rolls twice the number of each die.
function actions.roll(r)
  local a, chosen = r.action, set_of(r.options)
  local roll, title = a.roll, a.title
  if chosen.critical then
    roll = gsub(roll, "(%d+)d(%d+)", function(n, sides)
      return tostring(tonumber(n) * 2) .. "d" .. sides
    end)
    title = title .. " (critical)"
  end
  local keep = ""
  if chosen.advantage and not chosen.disadvantage then
    keep, title = "kh1", title .. " (advantage)"
  elseif chosen.disadvantage and not chosen.advantage then
    keep, title = "kl1", title .. " (disadvantage)"
  end
  local marks = ""
  if a.type == "attack" then
    marks = "cs>=" .. CRITICAL_AT .. "cf"
  end
  if (keep ~= "" or marks ~= "") and sub(roll, 1, 4) == "1d20" and not find(sub(roll, 5, 5), "%d") then
    local die = "1d20"
    if keep ~= "" then
      die = "2d20" .. keep
    end
    roll = die .. marks .. sub(roll, 5)
  end
  return { roll = roll, title = title }
end

-- outcome names an attack's result from its kept d20: a critical hit,
-- whose damage follows with its dice doubled, or a natural 1.
function actions.outcome(r)
  if r.action.type ~= "attack" then
    return nil
  end
  local critical, fumble = false, false
  for _, d in ipairs(r.roll.dice) do
    if not d.dropped then
      if d.critical == "success" then
        critical = true
      elseif d.critical == "failure" then
        fumble = true
      end
    end
  end
  if critical then
    return { outcome = "critical", next = { "critical" } }
  elseif fumble then
    return "fumble"
  end
  return nil
end

return actions
