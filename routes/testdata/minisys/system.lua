local companion = require("companion")

companion.entity("widget", {
  collection = "widgets",
  filters = { "color" },
  view = function(e)
    return { label = "Widget " .. e.name }
  end,
})
