-- Lanternlight for Companion: investigators in a fog-bound harbour town.
--
-- Skills are percentages rolled under on 1d100, with bonus and penalty
-- dice and graded successes (lib/rolls.lua); an investigator's health is
-- vigour, and the nerve they lose is marked on the sheet. Horrors are the
-- things met in the fog; gear is what is carried into it.
local companion = require("companion")
local rolls = require("lib.rolls")
local sheet = require("lib.sheet")
local views = require("lib.views")

companion.system {
  config = {
    entities = {
      Default = {
        combatant = { bars = { { attribute = "data.vigour", title = "Vigour", label = "VIG" } } },
      },
      investigator = { role = "friendly" },
      horror = { role = "hostile" },
    },
    -- Turns pass in order of wits: a d10 with a tenth of the wits added.
    -- No initiative: whoever acts hands the turn to someone who has not
    -- acted this round; a new round begins when everyone has.
    combat = { turns = "passed" },
    measurement = { metric = { default = true, title = "Metres", units = { "m" } }, diagonal = "euclidean" },
  },
}

companion.types("threats", { "nuisance", "menace", "dread" })
companion.types("conditions", { "Shaken", "Winded", "Lost in the fog", "Soaked" })

-- token is the token hook: one cell, the entity's art, and sight for an
-- investigator (a lantern's reach for a horror is the game master's).
local function token(role, sees)
  return function(e)
    local image = nil
    if type(e.image) == "string" and e.image ~= "" then
      image = e.image
    end
    return { width = 1, height = 1, image = image, role = role, vision = { enabled = sees, light = false, dark = false } }
  end
end

companion.entity("investigator", {
  collection = "investigators",
  title = "Investigator",
  collectionTitle = "Investigators",
  template = "investigator.html",
  unique = true,
  ranges = { "vigour" },
  editable = { "vigour", "max_vigour", "nerve" },
  bounds = {
    vigour = { min = 0, max = 99, integer = true },
    max_vigour = { min = 1, max = 99, integer = true },
    temp_vigour = { min = 0, max = 99, integer = true },
  },
  health = "Vigour",
  tallies = {
    { key = "nerve", title = "Nerve", most = 5, marks = { { key = "shaken", title = "Shaken" } } },
  },
  actions = sheet.actions,
  rollOptions = rolls.OPTIONS,
  roll = rolls.plan,
  outcomes = rolls.OUTCOMES,
  outcome = rolls.outcome,
  view = views.investigator,
  token = token("friendly", true),
})

companion.entity("horror", {
  collection = "horrors",
  title = "Horror",
  collectionTitle = "Horrors",
  template = "horror.html",
  filters = { "threat" },
  ranges = { "vigour" },
  view = views.horror,
  token = token("hostile", false),
})

companion.entity("gear", {
  collection = "gear",
  title = "Gear",
  collectionTitle = "Gear",
  template = "gear.html",
  filters = { "category" },
  view = views.gear,
})
