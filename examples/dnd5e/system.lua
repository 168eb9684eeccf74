-- Dungeons & Dragons 5th edition (SRD 5.1) for Companion.
--
-- Entity data keeps the field names of the SRD JSON (5e-database), so a
-- monster, spell, equipment or magic item record imports as is: its
-- `index` becomes the entity slug, its `name` the entity name and every
-- other field the entity `data`. The lib/ files turn that data into the
-- lines a player reads on a stat block; templates/ lay them out.
local companion = require("companion")
local monster = require("lib.monster")
local spell = require("lib.spell")
local item = require("lib.item")
local character = require("lib.character")
local actions = require("lib.actions")
local token = require("lib.token")
local options = require("lib.options")
local grid = require("lib.grid")

companion.system {
  config = {
    entities = {
      Default = {
        combatant = {
          bars = {
            { attribute = "data.hit_points", title = "Hit Points", label = "HP" },
          },
        },
      },
      -- icons from assets/, served under /systems/dnd5e/
      monster = { role = "hostile", collection = { icon = "/systems/dnd5e/monster.svg" } },
      spell = { collection = { icon = "/systems/dnd5e/spell.svg" } },
      item = { collection = { icon = "/systems/dnd5e/item.svg" } },
      character = { role = "friendly", collection = { icon = "/systems/dnd5e/character.svg" } },
      race = { collection = { icon = "/systems/dnd5e/option.svg" } },
      class = { collection = { icon = "/systems/dnd5e/option.svg" } },
      feat = { collection = { icon = "/systems/dnd5e/option.svg" } },
      background = { collection = { icon = "/systems/dnd5e/option.svg" } },
    },
    combat = {
      initiative = { mode = "roll", rollFormula = "1d20", autoRoll = "hostile", sortOrder = "desc" },
    },
    measurement = {
      imperial = { default = true, title = "Feet", units = { "ft" } },
      -- How a ruler counts a diagonal step on a square grid: "equal" (one
      -- square, the 5e default), "alternate" (5-10-5, the variant rule) or
      -- "euclidean". Players' rulers read it from GET /api/system.
      diagonal = "equal",
    },
  },
}

companion.entity("monster", {
  collection = "monsters",
  title = "Monster",
  collectionTitle = "Monsters",
  template = "monster.html",
  filters = { "challenge_rating", "type", "size" },
  ranges = { "hit_points" },
  references = monster.references,
  view = monster.view,
  token = token.of("hostile", false),
  initiative = token.initiative,
})

-- The filter keys are copied from data as stored: school is the SRD
-- reference object {index, name, url}, so list rows filter on school.index.
companion.entity("spell", {
  collection = "spells",
  title = "Spell",
  collectionTitle = "Spells",
  template = "spell.html",
  filters = { "level", "school" },
  view = spell.view,
})

-- Equipment and magic items share one kind; equipment_category and rarity
-- are SRD reference objects ({index, name, url} and {name}).
companion.entity("item", {
  collection = "items",
  title = "Item",
  collectionTitle = "Items",
  template = "item.html",
  filters = { "equipment_category", "rarity" },
  references = item.references,
  view = item.view,
})

companion.entity("character", {
  collection = "characters",
  title = "Character",
  collectionTitle = "Characters",
  template = "character.html",
  unique = true,
  ranges = { "hit_points" },
  -- What the player holding the character's seat may change: hit points
  -- through damage, healing and temporary hit points (the game master's
  -- rules), the maximum, and the death saves they mark.
  editable = { "hit_points", "max_hit_points", "death_saves" },
  -- What a player may write there: whole hit points, as the rules count
  -- them (the temporary ones are temp_hit_points).
  bounds = {
    hit_points = { min = 0, max = 9999, integer = true },
    max_hit_points = { min = 1, max = 9999, integer = true },
    temp_hit_points = { min = 0, max = 9999, integer = true },
  },
  actions = character.actions,
  -- How the actions roll (lib/actions.lua): the options a roll offers, the
  -- formula each rolls with them, and what an attack's d20 comes to.
  -- What the sheet calls the first range, and the death saves the player
  -- marks while at 0 hit points.
  health = "Hit points",
  tallies = {
    {
      key = "death_saves", title = "Death saves", most = 3, shown = "down",
      marks = { { key = "successes", title = "Successes" }, { key = "failures", title = "Failures" } },
    },
  },
  rollOptions = actions.OPTIONS,
  outcomes = actions.OUTCOMES,
  roll = actions.roll,
  outcome = actions.outcome,
  references = character.references,
  view = character.view,
  token = token.of("friendly", true),
  initiative = token.initiative,
})

-- Character options (lib/options.lua), mostly imported from Fight Club 5e
-- compendiums.
companion.entity("race", {
  collection = "races",
  title = "Race",
  collectionTitle = "Races",
  template = "race.html",
  filters = { "size" },
  view = options.race,
})

companion.entity("class", {
  collection = "classes",
  title = "Class",
  collectionTitle = "Classes",
  template = "class.html",
  filters = { "hit_die" },
  view = options.class,
})

companion.entity("feat", {
  collection = "feats",
  title = "Feat",
  collectionTitle = "Feats",
  template = "feat.html",
  view = options.feat,
})

companion.entity("background", {
  collection = "backgrounds",
  title = "Background",
  collectionTitle = "Backgrounds",
  template = "background.html",
  view = options.background,
})

-- Legacy compendium XML (Fight Club 5e, Encounter+): each entry becomes an
-- entity of the kind above with the data its view reads (lib/import/).
-- What a mapper does not take out of the element stays on the entity
-- under data.unmapped.
local import_monster = require("lib.import.monster")
local import_spell = require("lib.import.spell")
local import_item = require("lib.import.item")
local import_character = require("lib.import.character")
local import_options = require("lib.import.options")
companion.import.compendium("monster", import_monster.import)
companion.import.compendium("spell", import_spell.import)
companion.import.compendium("item", import_item.import)
companion.import.compendium("player", import_character.import)
companion.import.compendium("race", import_options.race)
companion.import.compendium("class", import_options.class)
companion.import.compendium("feat", import_options.feat)
companion.import.compendium("background", import_options.background)

-- definitions.types: option lists for pickers and filters. `index` is the
-- value stored in data (SRD sizes and creature types are plain strings,
-- schools/damage types/conditions are referenced by index), `name` is shown.
local function options(list)
  local out = {}
  for i, pair in ipairs(list) do
    out[i] = { index = pair[1], name = pair[2] }
  end
  return out
end

local function same(names)
  local out = {}
  for i, n in ipairs(names) do
    out[i] = { n, n }
  end
  return out
end

local function indexed(names)
  local out = {}
  for i, n in ipairs(names) do
    out[i] = { n:lower():gsub(" ", "-"), n }
  end
  return out
end

companion.types("sizes", options(same({ "Tiny", "Small", "Medium", "Large", "Huge", "Gargantuan" })))
companion.types("creature_types", options({
  { "aberration", "Aberration" }, { "beast", "Beast" }, { "celestial", "Celestial" },
  { "construct", "Construct" }, { "dragon", "Dragon" }, { "elemental", "Elemental" },
  { "fey", "Fey" }, { "fiend", "Fiend" }, { "giant", "Giant" }, { "humanoid", "Humanoid" },
  { "monstrosity", "Monstrosity" }, { "ooze", "Ooze" }, { "plant", "Plant" }, { "undead", "Undead" },
}))
companion.types("schools", options(indexed({
  "Abjuration", "Conjuration", "Divination", "Enchantment", "Evocation", "Illusion", "Necromancy", "Transmutation",
})))
companion.types("damage_types", options(indexed({
  "Acid", "Bludgeoning", "Cold", "Fire", "Force", "Lightning", "Necrotic", "Piercing", "Poison",
  "Psychic", "Radiant", "Slashing", "Thunder",
})))
companion.types("conditions", options(indexed({
  "Blinded", "Charmed", "Deafened", "Exhaustion", "Frightened", "Grappled", "Incapacitated", "Invisible",
  "Paralyzed", "Petrified", "Poisoned", "Prone", "Restrained", "Stunned", "Unconscious",
})))
companion.types("rarities", options(indexed({
  "Common", "Uncommon", "Rare", "Very Rare", "Legendary", "Artifact", "Varies",
})))
companion.types("challenge_ratings", options({
  { 0, "0" }, { 0.125, "1/8" }, { 0.25, "1/4" }, { 0.5, "1/2" },
  { 1, "1" }, { 2, "2" }, { 3, "3" }, { 4, "4" }, { 5, "5" }, { 6, "6" }, { 7, "7" }, { 8, "8" },
  { 9, "9" }, { 10, "10" }, { 11, "11" }, { 12, "12" }, { 13, "13" }, { 14, "14" }, { 15, "15" },
  { 16, "16" }, { 17, "17" }, { 18, "18" }, { 19, "19" }, { 20, "20" }, { 21, "21" }, { 22, "22" },
  { 23, "23" }, { 24, "24" }, { 25, "25" }, { 26, "26" }, { 27, "27" }, { 28, "28" }, { 29, "29" },
  { 30, "30" },
}))

-- Templates and rulers on the map follow the 5e grid (lib/grid.lua).
companion.grid { squares = grid.squares, distance = grid.distance }
