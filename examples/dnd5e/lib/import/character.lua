-- The original application's <player> (a player character) as a
-- character (lib/character.lua): race, class and level, experience,
-- armor class, hit points, speed, the six scores, skills, senses, spells
-- and equipment as references, personality.
local xml = require("lib.import.xml")
local monster = require("lib.import.monster")

local take, take_text, number = xml.take, xml.take_text, xml.number

local character = {}

function character.import(el)
  local name = take_text(el, "name")
  local slug = take_text(el, "slug")
  local data = { index = slug ~= "" and slug or xml.slug(name) }
  data.race = take_text(el, "race")
  local class = take_text(el, "class")
  if class ~= "" then
    data.classes = { { name = class, level = number(take(el, "level")) } }
  end
  data.experience_points = number(take(el, "xp"))
  data.armor_class = monster.armor_class(take_text(el, "ac"))
  data.hit_points = number(take(el, "hp"))
  data.max_hit_points = data.hit_points
  local speed = take_text(el, "speed"):gsub("(%d+)%s*feet", "%1 ft.")
  data.speed = monster.speed(speed)
  data.strength = number(take(el, "str"))
  data.dexterity = number(take(el, "dex"))
  data.constitution = number(take(el, "con"))
  data.intelligence = number(take(el, "int"))
  data.wisdom = number(take(el, "wis"))
  data.charisma = number(take(el, "cha"))
  data.proficiencies = monster.proficiencies(take_text(el, "save"), take_text(el, "skill"))
  data.senses = monster.senses(take_text(el, "senses"), number(take(el, "passive")))
  data.initiative_bonus = number(take(el, "initiative"))
  data.languages = take_text(el, "languages")
  local spells = {}
  for _, s in ipairs(xml.split(take_text(el, "spells"), ",")) do
    spells[#spells + 1] = xml.ref(s)
  end
  data.spells = spells
  local equipment = {}
  for _, s in ipairs(xml.split(take_text(el, "equipment"), ",")) do
    equipment[#equipment + 1] = { item = xml.ref(s), quantity = 1 }
  end
  data.equipment = equipment
  for _, key in ipairs({ "ideals", "bonds", "flaws", "party", "faction" }) do
    local v = take_text(el, key)
    if v ~= "" then
      data[key] = v
    end
  end
  local ddb = take_text(el, "ddb")
  if ddb ~= "" then
    data.character_sheet = ddb
  end
  local descr = xml.paragraphs(take(el, "descr"))
  if #descr > 0 then
    data.desc = descr
  end
  return {
    kind = "character",
    name = name,
    slug = slug ~= "" and slug or nil,
    image = take_text(el, "image"),
    token = take_text(el, "token"),
    data = data,
  }
end

return character
