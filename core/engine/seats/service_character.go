package seats

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/chat"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/redact"
	"github.com/vttapp/companion/core/turns"
)

// ownCharacter is a seated player's character as one transaction reads it.
type ownCharacter struct {
	seat      *core.Seat
	view      core.SeatView
	entity    *core.Entity
	combatant *core.Combatant // nil when not in the primary game
	game      *core.Game
}

// own reads the character whose seat who holds.
func (s seatsPinned) own(tx core.Tx, who core.Actor) (*ownCharacter, error) {
	if err := who.RefuseSpectator("play a character"); err != nil {
		return nil, err
	}
	if who.Seat == "" {
		return nil, core.Forbiddenf("take a seat first: only the player holding a character's seat plays it")
	}
	t, err := s.SeatTable(tx)
	if err != nil {
		return nil, err
	}
	st := t.HeldBy(who.Seat)
	if st == nil {
		return nil, core.Forbiddenf("your seat was freed: take a seat again")
	}
	e, _ := t.Character(st.EntityID)
	o := &ownCharacter{seat: st, view: kernel.SeatView(e, st), entity: e}
	combatants, err := tx.Combatants(t.Campaign.ID)
	if err != nil {
		return nil, err
	}
	for _, c := range combatants {
		if c.EntityID == e.ID {
			o.combatant = c
			break
		}
	}
	if o.game, err = tx.Game(t.Campaign.ID); err != nil {
		return nil, err
	}
	o.game.Combatants = combatants
	return o, nil
}

// readOwn reads who's character in one read transaction.
func (s seatsPinned) readOwn(ctx context.Context, who core.Actor) (*ownCharacter, error) {
	var o *ownCharacter
	err := s.Store.View(ctx, func(tx core.Tx) error {
		var err error
		o, err = s.own(tx, who)
		return err
	})
	return o, err
}

// CharacterSheet returns the sheet of the character whose seat who holds.
func (s *SeatsRoom) CharacterSheet(ctx context.Context, who core.Actor) (*core.CharacterSheet, error) {
	p := s.pin()
	var out *core.CharacterSheet
	err := p.Store.View(ctx, func(tx core.Tx) error {
		o, err := p.own(tx, who)
		if err != nil {
			return err
		}
		out, err = p.sheet(tx, o)
		return err
	})
	if err != nil {
		return nil, err
	}
	if out.Actions, err = p.actions(ctx, out.Character); err != nil {
		return nil, err
	}
	return out, nil
}

func (s seatsPinned) sheet(tx core.Tx, o *ownCharacter) (*core.CharacterSheet, error) {
	e := o.entity
	out := &core.CharacterSheet{Seat: o.view, Character: redact.EntityForPlayers(e), Reference: "/" + e.Kind + "/" + e.Slug,
		TokenIDs: []string{}, Controls: []string{}, Effects: []core.EffectView{}, Editable: s.OwnEditable(e.Kind),
		Actions: []core.Action{}, RollOptions: []core.RollOption{}, Tallies: []core.Tally{}, Round: o.game.Round,
		Turns: turns.TurnsByInitiative}
	if s.TurnsPassed() {
		out.Turns = turns.TurnsPassed
	}
	if sr, ok := s.Rules.(core.SheetRules); ok {
		if t := sr.Tallies(e.Kind); t != nil {
			out.Tallies = t
		}
	}
	if rr, ok := s.Rules.(core.RollRules); ok {
		if opts := rr.RollOptions(e.Kind); opts != nil {
			out.RollOptions = opts
		}
	}
	if out.Editable == nil {
		out.Editable = []string{}
	}
	if keys := s.HitPointKeys(e.Kind); len(keys) > 0 {
		out.HitPointsEditable = slices.Contains(s.EditableKeys(e.Kind), keys[0])
	}
	screen, err := s.ViewerMapIn(tx, o.seat.Holder) // the map the seat looks at
	if err != nil {
		return nil, err
	}
	if screen != "" {
		tokens, err := tx.Tokens(screen)
		if err != nil {
			return nil, err
		}
		for _, t := range tokens {
			if !redact.TokenShown(t, screen) {
				continue
			}
			if t.EntityID != nil && *t.EntityID == e.ID {
				out.TokenIDs = append(out.TokenIDs, t.ID)
			}
			if slices.Contains(o.seat.Controls, t.ID) {
				out.Controls = append(out.Controls, t.ID)
			}
		}
	}
	out.HitPoints = s.hitPointsOf(o)
	if c := o.combatant; c != nil && !c.Hidden {
		players, err := s.PlayerCombatantIn(tx, c)
		if err != nil {
			return nil, err
		}
		out.Combatant = players
		for _, ef := range c.Effects {
			out.Effects = append(out.Effects, effectView(ef, c.ID, o.game))
		}
		if v, ok := kernel.NumberOf(kernel.FirstInitiativeValue(c)); ok {
			out.Initiative = &v
		}
		out.MyTurn = o.game.Started && o.game.CombatantID == c.ID
		if out.MyTurn && out.Turns == turns.TurnsPassed {
			out.PassTo = turns.PassChoices(o.game, c.ID)
		}
	}
	return out, nil
}

// hitPointsOf reads the character's hit points: its combatant's when it is
// in the game (the game master's numbers), else its own.
func (s seatsPinned) hitPointsOf(o *ownCharacter) *core.HitPoints {
	keys := s.HitPointKeys(o.entity.Kind)
	if len(keys) == 0 {
		return nil
	}
	r := keys[0]
	data := o.entity.Data
	if o.combatant != nil {
		data = o.combatant.Data
	}
	cur, ok := kernel.NumberOf(data[r])
	if !ok {
		return nil
	}
	maxHP, ok := kernel.NumberOf(data[kernel.MaxKey(r)])
	if !ok {
		if maxHP, ok = kernel.NumberOf(o.entity.Data[kernel.MaxKey(r)]); !ok {
			maxHP = cur
		}
	}
	temp, _ := kernel.NumberOf(data["temp_"+r])
	title := "Health"
	if sr, ok := s.Rules.(core.SheetRules); ok {
		title = sr.HealthTitle(o.entity.Kind)
	}
	return &core.HitPoints{Key: r, Title: title, Current: cur, Max: maxHP, Temp: temp, Bloodied: cur > 0 && cur <= maxHP/2, Defeated: cur <= 0}
}

// effectView is an effect with the rounds left of it (effects.go's rules).
func effectView(e core.StatusEffect, target string, g *core.Game) core.EffectView {
	v := core.EffectView{ID: e.ID, Name: cmp.Or(e.Name, e.Reference), Duration: e.Duration, DurationUnit: e.DurationUnit, DurationType: e.DurationType}
	rounds := kernel.EffectRounds(e)
	if rounds == 0 {
		return v
	}
	kind := strings.ToLower(e.DurationType)
	var left float64
	switch {
	case strings.HasSuffix(kind, "startnextturn"), strings.HasSuffix(kind, "endnextturn"):
		seen, _ := kernel.NumberOf(e.Data[kernel.EffectElapsed])
		left = rounds - seen
	case g == nil || !g.Started || e.RoundStart == 0:
		left = rounds
	default:
		left = float64(max(e.RoundStart, 1)) + rounds - float64(g.Round)
	}
	left = max(left, 0)
	v.RemainingRounds = &left
	return v
}

// actions lists the character's actions, through the system's hook.
func (s seatsPinned) actions(ctx context.Context, e *core.Entity) ([]core.Action, error) {
	cr, ok := s.Rules.(core.CharacterRules)
	if !ok {
		return []core.Action{}, nil
	}
	list, err := cr.ActionsFor(ctx, e)
	if err != nil {
		return nil, err
	}
	if list == nil {
		list = []core.Action{}
	}
	return list, nil
}

// ChangeOwnHitPoints applies damage, healing or temporary hit points to
// the player's own character, with the rules of the game master's
// controls (ChangeHitPoints): on its combatant when it is in the game
// (the hit points go back to the character), else on the character. The
// system must list the hit point key among the kind's editable keys.
func (s *SeatsRoom) ChangeOwnHitPoints(ctx context.Context, who core.Actor, ch core.HitPointChange) (*core.HitPoints, error) {
	p := s.pin()
	if err := checkHitPointChange(ch); err != nil {
		return nil, err
	}
	o, err := p.readOwn(ctx, who)
	if err != nil {
		return nil, err
	}
	keys := p.HitPointKeys(o.entity.Kind)
	if len(keys) == 0 || !slices.Contains(p.EditableKeys(o.entity.Kind), keys[0]) {
		return nil, core.Forbiddenf("the game system does not let players change the hit points of a %s", o.entity.Kind)
	}
	if err := p.checkHitPointAmount(o.entity.Kind, keys, ch); err != nil {
		return nil, err
	}
	if o.combatant != nil {
		if _, err := s.ChangeHitPoints(ctx, o.combatant.ID, ch); err != nil {
			return nil, err
		}
	} else if err := p.changeEntityHitPoints(ctx, o.entity.ID, keys[0], ch); err != nil {
		return nil, err
	}
	o, err = p.readOwn(ctx, who)
	if err != nil {
		return nil, err
	}
	return p.hitPointsOf(o), nil
}

// checkHitPointAmount holds a player's change to the system's bounds
// (health values are the system's to declare): temporary hit points
// within those of its temporary hit point key; damage and healing, as an
// amount of hit points, whole when they are and no more than the most
// there may be.
func (s seatsPinned) checkHitPointAmount(kind string, keys []string, ch core.HitPointChange) error {
	if ch.Temp != nil {
		if b, ok := s.Bound(kind, keys[1]); ok {
			return b.Check("temp", *ch.Temp)
		}
		return nil
	}
	amount, what := ch.Damage, "damage"
	if amount == nil {
		amount, what = ch.Healing, "healing"
	}
	if b, ok := s.Bound(kind, keys[0]); ok && amount != nil {
		return core.ValueBound{Integer: b.Integer, Max: b.Max}.Check(what, *amount)
	}
	return nil
}

// changeEntityHitPoints applies a hit point change to a character that
// is in no game, in one transaction.
func (s seatsPinned) changeEntityHitPoints(ctx context.Context, id, r string, ch core.HitPointChange) error {
	return s.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		e, err := tx.Entity(id)
		if err != nil {
			return nil, err
		}
		e.Data = kernel.CloneObject(e.Data)
		cur, ok := kernel.NumberOf(e.Data[r])
		if !ok {
			return nil, core.Invalidf("%s has no %s value to change", core.Clip(e.Name), r)
		}
		maxHP, ok := kernel.NumberOf(e.Data[kernel.MaxKey(r)])
		if !ok {
			maxHP = cur
		}
		applyHitPoints(e.Data, r, cur, maxHP, ch)
		return s.StoreEntity(tx, e)
	})
}

// ownGuard refuses an edit of an entity that is not who's character, or
// that changes more than its editable data.
func ownGuard(who core.Actor) kernel.EditGuard[core.Entity] {
	return func(s kernel.Pinned, _ core.Tx, next, old *core.Entity) error {
		seat := s.HeldSeatOf(who.Seat)
		if seat == nil || old.ID != seat.EntityID {
			return core.Forbiddenf("a player changes only their own character")
		}
		return s.CheckOwnEdit(old.Kind, old.Data, next.Data, old.WithoutData(), next.WithoutData())
	}
}

// PatchOwnCharacter merges a patch into the player's own character: only
// {"data": {...}} with the keys the system marks editable (not the hit
// points: ChangeOwnHitPoints). Anything else is refused whole.
func (s *SeatsRoom) PatchOwnCharacter(ctx context.Context, who core.Actor, patch core.Object) (*core.Entity, error) {
	p := s.pin()
	o, err := p.readOwn(ctx, who)
	if err != nil {
		return nil, err
	}
	for k := range patch {
		if k != "data" && k != "id" {
			return nil, core.Forbiddenf("a player may change only the data of their character, not '%s'", core.Clip(k))
		}
	}
	if _, ok := patch["data"].(map[string]any); !ok {
		return nil, core.Invalidf(`expected {"data": {...}}: the editable data keys and their new values`)
	}
	return redact.PlayersEntity(s.PatchEntityChecked(ctx, o.entity.Kind, o.entity.ID, patch, ownGuard(who), true))
}

// RollAction rolls one of the sheet's actions into the chat, as the
// character: the formula and title the system plans for the options
// chosen, a roll message typed as the system declares it with the
// die-by-die detail and the outcome the system names; then, when asked,
// the action's follow-up with the options that outcome names. An option
// the action does not offer is refused, and a roll whose hook fails is
// refused whole: nothing is posted.
func (s *SeatsRoom) RollAction(ctx context.Context, who core.Actor, req core.ActionRequest) (*core.ActionResult, error) {
	p := s.pin()
	o, err := p.readOwn(ctx, who)
	if err != nil {
		return nil, err
	}
	actions, err := p.actions(ctx, o.entity)
	if err != nil {
		return nil, err
	}
	find := func(id string) (*core.Action, error) {
		for i := range actions {
			if actions[i].ID == id {
				return &actions[i], nil
			}
		}
		return nil, core.NotFoundf("%s has no action '%s'", o.entity.Name, core.Clip(id))
	}
	a, err := find(req.Action)
	if err != nil {
		return nil, err
	}
	if err := checkOptions(*a, req.Options); err != nil {
		return nil, err
	}
	var follow *core.Action
	if req.Follow && a.Follow != "" {
		if follow, err = find(a.Follow); err != nil {
			return nil, err
		}
	}
	posts := 1
	if follow != nil {
		posts = 2
	}
	if err := s.Messages.Take(who.Device, posts); err != nil {
		return nil, err
	}
	out := &core.ActionResult{Messages: []*core.Message{}}
	m, outcome, err := p.rollAs(ctx, o, who, *a, req.Options, req.Private)
	if err != nil {
		return nil, err
	}
	out.Messages = append(out.Messages, m)
	out.Outcome = outcome
	if follow != nil {
		var next []string
		if outcome != nil {
			next = outcome.Next
		}
		// The system names the follow-up's options; it may only name those
		// the follow-up offers.
		if err := checkOptions(*follow, next); err != nil {
			return nil, core.Invalidf("the outcome of %s: %s", a.Title, core.MessageOf(err))
		}
		dm, _, err := p.rollAs(ctx, o, who, *follow, next, req.Private)
		if err != nil {
			return nil, err
		}
		out.Messages = append(out.Messages, dm)
	}
	return out, nil
}

// Limits of a roll request's options.
const maxRollOptions = 20

// checkOptions refuses options the action does not offer, and the same
// option twice.
func checkOptions(a core.Action, options []string) error {
	if len(options) > maxRollOptions {
		return core.Invalidf("at most %d options on one roll, not %d", maxRollOptions, len(options))
	}
	for i, opt := range options {
		if !slices.Contains(a.Options, opt) {
			if len(a.Options) == 0 {
				return core.Invalidf("%s is rolled without options, not '%s'", a.Title, core.Clip(opt))
			}
			return core.Invalidf("%s offers the options %s, not '%s'", a.Title, strings.Join(a.Options, ", "), core.Clip(opt))
		}
		if slices.Contains(options[:i], opt) {
			return core.Invalidf("the option '%s' is given twice", core.Clip(opt))
		}
	}
	return nil
}

// rollAs rolls an action with options as the system plans it, names its
// outcome through the system, and posts it as the character.
func (s seatsPinned) rollAs(ctx context.Context, o *ownCharacter, who core.Actor, a core.Action, options []string, private bool) (*core.Message, *core.Outcome, error) {
	plan := core.RollPlan{Roll: a.Roll, Title: a.Title}
	rr, hasRules := s.Rules.(core.RollRules)
	if hasRules {
		var err error
		if plan, err = rr.PlanRoll(ctx, o.entity, a, options); err != nil {
			return nil, nil, err
		}
	}
	m, err := s.rollMessage(o, who, plan.Title, a.Type, plan.Roll, private)
	if err != nil {
		return nil, nil, err
	}
	var outcome *core.Outcome
	if hasRules {
		if outcome, err = rr.OutcomeOf(ctx, o.entity, a, options, m.Rolls[0].Rolled()); err != nil {
			return nil, nil, err
		}
	}
	if outcome != nil {
		m.Outcome = outcome.Title
	}
	if err := s.StoreMessage(ctx, m); err != nil {
		return nil, nil, err
	}
	return m, outcome, nil
}

// postRoll rolls formula and posts it as the character (rollMessage).
func (s seatsPinned) postRoll(ctx context.Context, o *ownCharacter, who core.Actor, title, kind, formula string, private bool) (*core.Message, error) {
	m, err := s.rollMessage(o, who, title, kind, formula, private)
	if err != nil {
		return nil, err
	}
	if err := s.StoreMessage(ctx, m); err != nil {
		return nil, err
	}
	return m, nil
}

// rollMessage rolls formula as the character, not yet posted: a roll
// message whose content names the roll (title) and its type, the
// die-by-die detail in its text; a private one is read by the game master
// and the player alone (whisper.go).
func (s seatsPinned) rollMessage(o *ownCharacter, who core.Actor, title, kind, formula string, private bool) (*core.Message, error) {
	if s.Roller == nil {
		return nil, core.Conflictf("this server has no dice roller")
	}
	title = strings.Join(strings.Fields(title), " ") // one line
	comment := title
	if kind != "" {
		comment += ":" + kind
	}
	_, raws, _, err := s.Roller.RollText("/r " + formula + " # " + comment)
	if err != nil {
		return nil, core.Invalidf("%s", err.Error())
	}
	rolls := kernel.RollResults(raws)
	if msg := kernel.FailedRoll(rolls); msg != "" || len(rolls) != 1 {
		return nil, core.Invalidf("the roll of %s: %s", title, cmp.Or(msg, "not one roll"))
	}
	if err := kernel.CheckMessageRolls(rolls); err != nil {
		return nil, err
	}
	detail := strings.TrimSuffix(rolls[0].Text, " # "+rolls[0].Comment)
	m := &core.Message{ID: core.NewID(), Type: core.MessageRoll, Text: title + ": " + detail, Rolls: rolls,
		Source: o.entity.Name, Creature: o.entity.Name, Color: who.Color, Created: s.Now().UTC()}
	if private {
		m.Private, m.To, m.Audience = true, []string{chat.GMRecipient}, []string{who.Seat}
	}
	return m, nil
}

// RollOwnInitiative rolls the player's initiative with the system's rule
// (its formula and the character's bonus, as the game master's roll
// does), posts the roll, and puts the combatant in the turn order (ties
// settled as the game master's roll settles them). The character must be
// in the game and not have rolled yet.
func (s *SeatsRoom) RollOwnInitiative(ctx context.Context, who core.Actor) (*core.ActionResult, error) {
	p := s.pin()
	if p.TurnsPassed() {
		return nil, core.Conflictf("this game has no initiative: the one acting passes the turn")
	}
	o, err := p.readOwn(ctx, who)
	if err != nil {
		return nil, err
	}
	c := o.combatant
	if c == nil {
		return nil, core.Conflictf("%s is not in the game: the game master adds the character to combat first", o.entity.Name)
	}
	if _, ok := kernel.NumberOf(kernel.FirstInitiativeValue(c)); ok {
		return nil, core.Conflictf("%s has rolled initiative already", o.entity.Name)
	}
	rule, err := p.InitiativeRule(ctx, o.entity)
	if err != nil {
		return nil, err
	}
	formula := rule.Formula
	if rule.Bonus != 0 {
		formula += signedNumber(rule.Bonus)
	}
	if err := s.Messages.Take(who.Device, 1); err != nil {
		return nil, err
	}
	m, err := p.postRoll(ctx, o, who, "Initiative", core.ActionCheck, formula, false)
	if err != nil {
		return nil, err
	}
	total := m.Rolls[0].Total
	if total == nil {
		return nil, core.Invalidf("the initiative roll has no total")
	}
	if err := p.applyInitiative(ctx, c.Campaign, map[string]any{c.ID: *total}, map[string]float64{c.ID: rule.Tiebreak}); err != nil {
		return nil, err
	}
	return &core.ActionResult{Messages: []*core.Message{m}}, nil
}

// signedNumber writes a bonus as a formula writes it: +2, -1, +0.5.
func signedNumber(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if v >= 0 {
		return "+" + s
	}
	return s
}

// EndTurn passes the turn on, when combat runs and it is the player's
// character's turn (refused otherwise, in the same transaction as the
// step, so two taps pass one turn).
//
// In a system whose turns are passed (TurnsPassed) the player names who
// acts next (to): someone who has not acted this round; with no name the
// first such in the game's order acts.
func (s *SeatsRoom) EndTurn(ctx context.Context, who core.Actor, to string) (*core.Game, error) {
	p := s.pin()
	o, err := p.readOwn(ctx, who)
	if err != nil {
		return nil, err
	}
	if o.combatant == nil {
		return nil, core.Conflictf("%s is not in the game", o.entity.Name)
	}
	id := o.combatant.ID
	action := turns.CombatNext
	if to != "" {
		action = turns.CombatPass
	}
	return p.ControlCombat(ctx, action, to, func(g *core.Game) error {
		if !g.Started || g.CombatantID != id {
			return core.Conflictf("it is not %s's turn", o.entity.Name)
		}
		return nil
	})
}

// AskInitiative asks the seated players among the combatants (every one
// when ids is empty) who have not rolled initiative to roll it. It
// returns whom it asked.
func (s *SeatsRoom) AskInitiative(ctx context.Context, ids []string) (*core.InitiativeRequest, error) {
	p := s.pin()
	out := &core.InitiativeRequest{Combatants: []string{}, Seats: []string{}}
	err := p.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		c, err := p.PrimaryCampaign(tx)
		if err != nil {
			return nil, err
		}
		combatants, err := tx.Combatants(c.ID)
		if err != nil {
			return nil, err
		}
		if _, err := kernel.Pick(combatants, ids); err != nil {
			return nil, err
		}
		ask, err := kernel.InitiativeRequest(tx, c.ID, combatants, ids)
		if err != nil || ask == nil {
			return nil, err
		}
		out = ask.Data.(*core.InitiativeRequest)
		return []core.Event{*ask}, nil
	})
	return out, err
}
