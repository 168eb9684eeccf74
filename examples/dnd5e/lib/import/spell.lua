-- A <spell> of a legacy compendium as an SRD-shaped spell (lib/spell.lua):
-- level, school, ritual, casting time, range, components and material,
-- duration and concentration, classes, description with its "At Higher
-- Levels" part, and its rolls.
local xml = require("lib.import.xml")

local take, take_text = xml.take, xml.take_text

local spell = {}

local SCHOOLS = {
  A = "Abjuration", C = "Conjuration", D = "Divination", EN = "Enchantment", EV = "Evocation",
  I = "Illusion", N = "Necromancy", T = "Transmutation",
}

-- The classes that cast spells: other names in <classes> are Fight Club's
-- lists ("School: Evocation", "Ritual Caster").
local CLASSES = {
  artificer = true, bard = true, cleric = true, druid = true, paladin = true, ranger = true,
  sorcerer = true, warlock = true, wizard = true, fighter = true, rogue = true, monk = true, barbarian = true,
}

function spell.school(s)
  local name = SCHOOLS[s:upper()] or s
  if name == "" then
    return nil
  end
  name = name:sub(1, 1):upper() .. name:sub(2):lower()
  return { index = name:lower(), name = name }
end

-- components: "V, S, M (a pinch of wet clay)" -> { "V", "S", "M" }, "a pinch of wet clay".
function spell.components(s)
  local material = s:match("%((.*)%)")
  local letters = s:gsub("%(.*%)", "")
  local out = {}
  for _, c in ipairs(xml.split(letters, ",")) do
    out[#out + 1] = c:upper()
  end
  return out, material and xml.trim(material) or nil
end

-- classes: the casting classes as references, subclasses ("Fighter
-- (Eldritch Knight)") apart, and the other lists as written.
function spell.classes(s)
  local classes, subclasses, lists = {}, {}, {}
  for _, c in ipairs(xml.split(s, ",")) do
    local base, sub = c:match("^(.-)%s*%((.-)%)$")
    if base and CLASSES[base:lower()] then
      subclasses[#subclasses + 1] = xml.ref(sub)
      classes[#classes + 1] = xml.ref(base)
    elseif CLASSES[c:lower()] then
      classes[#classes + 1] = xml.ref(c)
    elseif not c:match("^School:") then
      lists[#lists + 1] = c
    end
  end
  -- A class named twice (once through a subclass) once.
  local seen, unique = {}, {}
  for _, c in ipairs(classes) do
    if not seen[c.index] then
      seen[c.index] = true
      unique[#unique + 1] = c
    end
  end
  return unique, subclasses, lists
end

-- split_higher moves the "At Higher Levels" paragraph out of the
-- description (the paragraphs after it, a condition's rules say, stay).
local function split_higher(paras)
  local desc, higher = {}, {}
  for _, p in ipairs(paras) do
    local rest = p:match("^[Aa]t [Hh]igher [Ll]evels[.:]%s*(.*)$")
    if rest then
      higher[#higher + 1] = rest
    else
      desc[#desc + 1] = p
    end
  end
  return desc, higher
end

function spell.import(el)
  local sources = {}
  local name = take_text(el, "name")
  local slug = take_text(el, "slug")
  local data = { index = slug ~= "" and slug or xml.slug(name) }
  data.level = xml.number(take(el, "level")) or 0
  data.school = spell.school(take_text(el, "school"))
  data.ritual = xml.yes(take(el, "ritual"))
  data.casting_time = take_text(el, "time")
  data.range = take_text(el, "range")
  data.components, data.material = spell.components(take_text(el, "components"))
  local duration = take_text(el, "duration")
  local rest = duration:match("^[Cc]oncentration,?%s*(.*)$")
  data.concentration = rest ~= nil
  if rest then
    duration = rest:sub(1, 1):upper() .. rest:sub(2)
  end
  data.duration = duration
  local lists
  data.classes, data.subclasses, lists = spell.classes(take_text(el, "classes"))
  if #lists > 0 then
    data.lists = lists
  end
  data.desc, data.higher_level = split_higher(xml.paragraphs(take(el, "text"), sources))
  local rolls = xml.rolls(take(el, "roll"))
  if #rolls > 0 then
    data.rolls = rolls
  end
  xml.sources(take_text(el, "source"), sources)
  return {
    kind = "spell",
    name = name,
    slug = slug ~= "" and slug or nil,
    image = take_text(el, "image"),
    data = data,
    sources = sources,
  }
end

return spell
