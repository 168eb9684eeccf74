package core

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"
)

// A seated player's own character: the sheet they read, their hit points
// (damage, healing, temporary hit points with the game master's rules),
// the data keys the system lets them write, the rolls of their sheet,
// their initiative and the end of their turn. Every method refuses a
// spectator and anyone without a seat; nothing here reaches another
// player's character.

// CharacterSheet is what the player holding a seat reads of their
// character (GET /api/me/character, getCharacter).
type CharacterSheet struct {
	Seat SeatView `json:"seat"`
	// Character is the stored entity, whole: it is the player's own.
	Character *Entity `json:"character"`
	// Reference is the sheet's page on this server: /<kind>/<slug>, the
	// system's template.
	Reference string `json:"reference"`
	// Combatant is the character's combatant in the game, as players see
	// it; null when it is in no game.
	Combatant *Combatant `json:"combatant"`
	// TokenIDs are the character's tokens on the map on the player screen
	// that players see; Controls the tokens the game master gave the seat
	// (those players see).
	TokenIDs []string `json:"tokenIds"`
	Controls []string `json:"controls"`
	// HitPoints is null when the kind keeps none.
	HitPoints *HitPoints `json:"hitPoints"`
	// Effects are the combatant's conditions and effects, with what is
	// left of them.
	Effects []EffectView `json:"effects"`
	// Editable lists the data keys the player may write (PATCH
	// /api/me/character); HitPointsEditable, whether they may apply damage,
	// healing and temporary hit points.
	Editable          []string `json:"editable"`
	HitPointsEditable bool     `json:"hitPointsEditable"`
	Actions           []Action `json:"actions"`
	// RollOptions are the options the kind's rolls offer (each action
	// lists those it takes).
	RollOptions []RollOption `json:"rollOptions"`
	// Tallies are the tracks the player marks on the sheet (SheetRules).
	Tallies []Tally `json:"tallies"`
	// Initiative is the combatant's first initiative value, null when not
	// rolled; MyTurn, that combat runs and it is this combatant's turn.
	Initiative *float64 `json:"initiative"`
	MyTurn     bool     `json:"myTurn"`
	Round      int      `json:"round"`
	// Turns is how the system's combat passes turns (TurnsByInitiative or
	// TurnsPassed); PassTo, on the acting player's sheet in a game whose
	// turns are passed, those the turn may go to (visible, not defeated,
	// not acted this round; empty when everyone else has acted: ending the
	// turn starts the next round).
	Turns  string     `json:"turns"`
	PassTo []TurnPick `json:"passTo,omitempty"`
}

// TurnPick is a combatant the turn may be passed to.
type TurnPick struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// HitPoints are a character's hit points as the sheet shows them.
type HitPoints struct {
	// Key is the data key of the current value ("hit_points" in D&D 5e);
	// the maximum is max_<key>, temporary hit points temp_<key>.
	Key string `json:"key"`
	// Title is what the system calls it ("Hit points"; "Health" when it
	// says nothing).
	Title    string  `json:"title"`
	Current  float64 `json:"current"`
	Max      float64 `json:"max"`
	Temp     float64 `json:"temp"`
	Bloodied bool    `json:"bloodied"`
	Defeated bool    `json:"defeated"`
}

// EffectView is a condition or effect on the character, with the rounds
// left (null when it lasts until removed).
type EffectView struct {
	ID              string   `json:"id"`
	Name            string   `json:"name"`
	Duration        float64  `json:"duration,omitempty"`
	DurationUnit    string   `json:"durationUnit,omitempty"`
	DurationType    string   `json:"durationType,omitempty"`
	RemainingRounds *float64 `json:"remainingRounds"`
}

// ActionRequest asks to roll one of the sheet's actions.
type ActionRequest struct {
	Action string `json:"action"`
	// Options are ids of the roll options the action offers (Action.Options),
	// passed to the system's roll hook; what they do is the system's.
	Options []string `json:"options"`
	// Follow, for an action with a follow-up (Action.Follow), rolls it
	// right after, with the options the first roll's outcome names.
	Follow bool `json:"follow"`
	// Private rolls to the game master only (whisper.go): the player and
	// the game master read it, nobody else.
	Private bool `json:"private"`
}

// ActionResult is what a roll posted: its messages (already broadcast),
// and the outcome the system named for the first roll (null when none).
type ActionResult struct {
	Messages []*Message `json:"messages"`
	Outcome  *Outcome   `json:"outcome"`
}

// ownCharacter is a seated player's character as one transaction reads it.
type ownCharacter struct {
	seat      *Seat
	view      SeatView
	entity    *Entity
	combatant *Combatant // nil when not in the primary game
	game      *Game
}

// own reads the character whose seat who holds.
func (s pinned) own(tx Tx, who Actor) (*ownCharacter, error) {
	if err := who.refuseSpectator("play a character"); err != nil {
		return nil, err
	}
	if who.Seat == "" {
		return nil, Forbiddenf("take a seat first: only the player holding a character's seat plays it")
	}
	t, err := s.seatTable(tx)
	if err != nil {
		return nil, err
	}
	st := t.heldBy(who.Seat)
	if st == nil {
		return nil, Forbiddenf("your seat was freed: take a seat again")
	}
	e, _ := t.character(st.EntityID)
	o := &ownCharacter{seat: st, view: seatView(e, st), entity: e}
	combatants, err := tx.Combatants(t.campaign.ID)
	if err != nil {
		return nil, err
	}
	for _, c := range combatants {
		if c.EntityID == e.ID {
			o.combatant = c
			break
		}
	}
	if o.game, err = tx.Game(t.campaign.ID); err != nil {
		return nil, err
	}
	o.game.Combatants = combatants
	return o, nil
}

// readOwn reads who's character in one read transaction.
func (s pinned) readOwn(ctx context.Context, who Actor) (*ownCharacter, error) {
	var o *ownCharacter
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		o, err = s.own(tx, who)
		return err
	})
	return o, err
}

// CharacterSheet returns the sheet of the character whose seat who holds.
func (s *Service) CharacterSheet(ctx context.Context, who Actor) (*CharacterSheet, error) {
	p := s.pin()
	var out *CharacterSheet
	err := p.store.View(ctx, func(tx Tx) error {
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

func (s pinned) sheet(tx Tx, o *ownCharacter) (*CharacterSheet, error) {
	e := o.entity
	out := &CharacterSheet{Seat: o.view, Character: EntityForPlayers(e), Reference: "/" + e.Kind + "/" + e.Slug,
		TokenIDs: []string{}, Controls: []string{}, Effects: []EffectView{}, Editable: s.ownEditable(e.Kind),
		Actions: []Action{}, RollOptions: []RollOption{}, Tallies: []Tally{}, Round: o.game.Round,
		Turns: TurnsByInitiative}
	if s.turnsPassed() {
		out.Turns = TurnsPassed
	}
	if sr, ok := s.rules.(SheetRules); ok {
		if t := sr.Tallies(e.Kind); t != nil {
			out.Tallies = t
		}
	}
	if rr, ok := s.rules.(RollRules); ok {
		if opts := rr.RollOptions(e.Kind); opts != nil {
			out.RollOptions = opts
		}
	}
	if out.Editable == nil {
		out.Editable = []string{}
	}
	if keys := s.hitPointKeys(e.Kind); len(keys) > 0 {
		out.HitPointsEditable = slices.Contains(s.editableKeys(e.Kind), keys[0])
	}
	screen, err := s.viewerMapIn(tx, o.seat.Holder) // the map the seat looks at
	if err != nil {
		return nil, err
	}
	if screen != "" {
		tokens, err := tx.Tokens(screen)
		if err != nil {
			return nil, err
		}
		for _, t := range tokens {
			if !TokenShown(t, screen) {
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
		players, err := s.playerCombatantIn(tx, c)
		if err != nil {
			return nil, err
		}
		out.Combatant = players
		for _, ef := range c.Effects {
			out.Effects = append(out.Effects, effectView(ef, c.ID, o.game))
		}
		if v, ok := numberOf(firstInitiativeValue(c)); ok {
			out.Initiative = &v
		}
		out.MyTurn = o.game.Started && o.game.CombatantID == c.ID
		if out.MyTurn && out.Turns == TurnsPassed {
			out.PassTo = passChoices(o.game, c.ID)
		}
	}
	return out, nil
}

// hitPointsOf reads the character's hit points: its combatant's when it is
// in the game (the game master's numbers), else its own.
func (s pinned) hitPointsOf(o *ownCharacter) *HitPoints {
	keys := s.hitPointKeys(o.entity.Kind)
	if len(keys) == 0 {
		return nil
	}
	r := keys[0]
	data := o.entity.Data
	if o.combatant != nil {
		data = o.combatant.Data
	}
	cur, ok := numberOf(data[r])
	if !ok {
		return nil
	}
	maxHP, ok := numberOf(data[maxKey(r)])
	if !ok {
		if maxHP, ok = numberOf(o.entity.Data[maxKey(r)]); !ok {
			maxHP = cur
		}
	}
	temp, _ := numberOf(data["temp_"+r])
	title := "Health"
	if sr, ok := s.rules.(SheetRules); ok {
		title = sr.HealthTitle(o.entity.Kind)
	}
	return &HitPoints{Key: r, Title: title, Current: cur, Max: maxHP, Temp: temp, Bloodied: cur > 0 && cur <= maxHP/2, Defeated: cur <= 0}
}

// effectView is an effect with the rounds left of it (effects.go's rules).
func effectView(e StatusEffect, target string, g *Game) EffectView {
	v := EffectView{ID: e.ID, Name: cmp.Or(e.Name, e.Reference), Duration: e.Duration, DurationUnit: e.DurationUnit, DurationType: e.DurationType}
	rounds := effectRounds(e)
	if rounds == 0 {
		return v
	}
	kind := strings.ToLower(e.DurationType)
	var left float64
	switch {
	case strings.HasSuffix(kind, "startnextturn"), strings.HasSuffix(kind, "endnextturn"):
		seen, _ := numberOf(e.Data[effectElapsed])
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
func (s pinned) actions(ctx context.Context, e *Entity) ([]Action, error) {
	cr, ok := s.rules.(CharacterRules)
	if !ok {
		return []Action{}, nil
	}
	list, err := cr.ActionsFor(ctx, e)
	if err != nil {
		return nil, err
	}
	if list == nil {
		list = []Action{}
	}
	return list, nil
}

// ChangeOwnHitPoints applies damage, healing or temporary hit points to
// the player's own character, with the rules of the game master's
// controls (ChangeHitPoints): on its combatant when it is in the game
// (the hit points go back to the character), else on the character. The
// system must list the hit point key among the kind's editable keys.
func (s *Service) ChangeOwnHitPoints(ctx context.Context, who Actor, ch HitPointChange) (*HitPoints, error) {
	p := s.pin()
	if err := checkHitPointChange(ch); err != nil {
		return nil, err
	}
	o, err := p.readOwn(ctx, who)
	if err != nil {
		return nil, err
	}
	keys := p.hitPointKeys(o.entity.Kind)
	if len(keys) == 0 || !slices.Contains(p.editableKeys(o.entity.Kind), keys[0]) {
		return nil, Forbiddenf("the game system does not let players change the hit points of a %s", o.entity.Kind)
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
func (s pinned) checkHitPointAmount(kind string, keys []string, ch HitPointChange) error {
	if ch.Temp != nil {
		if b, ok := s.bound(kind, keys[1]); ok {
			return b.check("temp", *ch.Temp)
		}
		return nil
	}
	amount, what := ch.Damage, "damage"
	if amount == nil {
		amount, what = ch.Healing, "healing"
	}
	if b, ok := s.bound(kind, keys[0]); ok && amount != nil {
		return ValueBound{Integer: b.Integer, Max: b.Max}.check(what, *amount)
	}
	return nil
}

// changeEntityHitPoints applies a hit point change to a character that
// is in no game, in one transaction.
func (s pinned) changeEntityHitPoints(ctx context.Context, id, r string, ch HitPointChange) error {
	return s.write(ctx, func(tx Tx) ([]Event, error) {
		e, err := tx.Entity(id)
		if err != nil {
			return nil, err
		}
		e.Data = cloneObject(e.Data)
		cur, ok := numberOf(e.Data[r])
		if !ok {
			return nil, Invalidf("%s has no %s value to change", Clip(e.Name), r)
		}
		maxHP, ok := numberOf(e.Data[maxKey(r)])
		if !ok {
			maxHP = cur
		}
		applyHitPoints(e.Data, r, cur, maxHP, ch)
		return s.storeEntity(tx, e)
	})
}

// ownGuard refuses an edit of an entity that is not who's character, or
// that changes more than its editable data.
func ownGuard(who Actor) editGuard[Entity] {
	return func(s pinned, _ Tx, next, old *Entity) error {
		seat := s.seatHeld(who.Seat)
		if seat == nil || old.ID != seat.EntityID {
			return Forbiddenf("a player changes only their own character")
		}
		return s.checkOwnEdit(old.Kind, old.Data, next.Data, old.withoutData(), next.withoutData())
	}
}

// PatchOwnCharacter merges a patch into the player's own character: only
// {"data": {...}} with the keys the system marks editable (not the hit
// points: ChangeOwnHitPoints). Anything else is refused whole.
func (s *Service) PatchOwnCharacter(ctx context.Context, who Actor, patch Object) (*Entity, error) {
	p := s.pin()
	o, err := p.readOwn(ctx, who)
	if err != nil {
		return nil, err
	}
	for k := range patch {
		if k != "data" && k != "id" {
			return nil, Forbiddenf("a player may change only the data of their character, not '%s'", Clip(k))
		}
	}
	if _, ok := patch["data"].(map[string]any); !ok {
		return nil, Invalidf(`expected {"data": {...}}: the editable data keys and their new values`)
	}
	return playersEntity(s.patchEntity(ctx, o.entity.Kind, o.entity.ID, patch, ownGuard(who), true))
}

// RollAction rolls one of the sheet's actions into the chat, as the
// character: the formula and title the system plans for the options
// chosen, a roll message typed as the system declares it with the
// die-by-die detail and the outcome the system names; then, when asked,
// the action's follow-up with the options that outcome names. An option
// the action does not offer is refused, and a roll whose hook fails is
// refused whole: nothing is posted.
func (s *Service) RollAction(ctx context.Context, who Actor, req ActionRequest) (*ActionResult, error) {
	p := s.pin()
	o, err := p.readOwn(ctx, who)
	if err != nil {
		return nil, err
	}
	actions, err := p.actions(ctx, o.entity)
	if err != nil {
		return nil, err
	}
	find := func(id string) (*Action, error) {
		for i := range actions {
			if actions[i].ID == id {
				return &actions[i], nil
			}
		}
		return nil, NotFoundf("%s has no action '%s'", o.entity.Name, Clip(id))
	}
	a, err := find(req.Action)
	if err != nil {
		return nil, err
	}
	if err := checkOptions(*a, req.Options); err != nil {
		return nil, err
	}
	var follow *Action
	if req.Follow && a.Follow != "" {
		if follow, err = find(a.Follow); err != nil {
			return nil, err
		}
	}
	posts := 1
	if follow != nil {
		posts = 2
	}
	if err := s.messages.take(who.Device, posts); err != nil {
		return nil, err
	}
	out := &ActionResult{Messages: []*Message{}}
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
			return nil, Invalidf("the outcome of %s: %s", a.Title, MessageOf(err))
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
func checkOptions(a Action, options []string) error {
	if len(options) > maxRollOptions {
		return Invalidf("at most %d options on one roll, not %d", maxRollOptions, len(options))
	}
	for i, opt := range options {
		if !slices.Contains(a.Options, opt) {
			if len(a.Options) == 0 {
				return Invalidf("%s is rolled without options, not '%s'", a.Title, Clip(opt))
			}
			return Invalidf("%s offers the options %s, not '%s'", a.Title, strings.Join(a.Options, ", "), Clip(opt))
		}
		if slices.Contains(options[:i], opt) {
			return Invalidf("the option '%s' is given twice", Clip(opt))
		}
	}
	return nil
}

// rollAs rolls an action with options as the system plans it, names its
// outcome through the system, and posts it as the character.
func (s pinned) rollAs(ctx context.Context, o *ownCharacter, who Actor, a Action, options []string, private bool) (*Message, *Outcome, error) {
	plan := RollPlan{Roll: a.Roll, Title: a.Title}
	rr, hasRules := s.rules.(RollRules)
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
	var outcome *Outcome
	if hasRules {
		if outcome, err = rr.OutcomeOf(ctx, o.entity, a, options, m.Rolls[0].Rolled()); err != nil {
			return nil, nil, err
		}
	}
	if outcome != nil {
		m.Outcome = outcome.Title
	}
	if err := s.storeMessage(ctx, m); err != nil {
		return nil, nil, err
	}
	return m, outcome, nil
}

// postRoll rolls formula and posts it as the character (rollMessage).
func (s pinned) postRoll(ctx context.Context, o *ownCharacter, who Actor, title, kind, formula string, private bool) (*Message, error) {
	m, err := s.rollMessage(o, who, title, kind, formula, private)
	if err != nil {
		return nil, err
	}
	if err := s.storeMessage(ctx, m); err != nil {
		return nil, err
	}
	return m, nil
}

// rollMessage rolls formula as the character, not yet posted: a roll
// message whose content names the roll (title) and its type, the
// die-by-die detail in its text; a private one is read by the game master
// and the player alone (whisper.go).
func (s pinned) rollMessage(o *ownCharacter, who Actor, title, kind, formula string, private bool) (*Message, error) {
	if s.roller == nil {
		return nil, Conflictf("this server has no dice roller")
	}
	title = strings.Join(strings.Fields(title), " ") // one line
	comment := title
	if kind != "" {
		comment += ":" + kind
	}
	_, raws, _, err := s.roller.RollText("/r " + formula + " # " + comment)
	if err != nil {
		return nil, Invalidf("%s", err.Error())
	}
	rolls := rollResults(raws)
	if msg := failedRoll(rolls); msg != "" || len(rolls) != 1 {
		return nil, Invalidf("the roll of %s: %s", title, cmp.Or(msg, "not one roll"))
	}
	if err := checkMessageRolls(rolls); err != nil {
		return nil, err
	}
	detail := strings.TrimSuffix(rolls[0].Text, " # "+rolls[0].Comment)
	m := &Message{ID: NewID(), Type: MessageRoll, Text: title + ": " + detail, Rolls: rolls,
		Source: o.entity.Name, Creature: o.entity.Name, Color: who.Color, Created: s.now().UTC()}
	if private {
		m.Private, m.To, m.Audience = true, []string{gmRecipient}, []string{who.Seat}
	}
	return m, nil
}

// RollOwnInitiative rolls the player's initiative with the system's rule
// (its formula and the character's bonus, as the game master's roll
// does), posts the roll, and puts the combatant in the turn order (ties
// settled as the game master's roll settles them). The character must be
// in the game and not have rolled yet.
func (s *Service) RollOwnInitiative(ctx context.Context, who Actor) (*ActionResult, error) {
	p := s.pin()
	if p.turnsPassed() {
		return nil, Conflictf("this game has no initiative: the one acting passes the turn")
	}
	o, err := p.readOwn(ctx, who)
	if err != nil {
		return nil, err
	}
	c := o.combatant
	if c == nil {
		return nil, Conflictf("%s is not in the game: the game master adds the character to combat first", o.entity.Name)
	}
	if _, ok := numberOf(firstInitiativeValue(c)); ok {
		return nil, Conflictf("%s has rolled initiative already", o.entity.Name)
	}
	rule, err := p.initiativeRule(ctx, o.entity)
	if err != nil {
		return nil, err
	}
	formula := rule.Formula
	if rule.Bonus != 0 {
		formula += signedNumber(rule.Bonus)
	}
	if err := s.messages.take(who.Device, 1); err != nil {
		return nil, err
	}
	m, err := p.postRoll(ctx, o, who, "Initiative", ActionCheck, formula, false)
	if err != nil {
		return nil, err
	}
	total := m.Rolls[0].Total
	if total == nil {
		return nil, Invalidf("the initiative roll has no total")
	}
	if err := p.applyInitiative(ctx, c.Campaign, map[string]any{c.ID: *total}, map[string]float64{c.ID: rule.Tiebreak}); err != nil {
		return nil, err
	}
	return &ActionResult{Messages: []*Message{m}}, nil
}

// firstInitiativeValue is a combatant's first initiative value, nil when
// it has none.
func firstInitiativeValue(c *Combatant) any {
	if len(c.Initiative) == 0 {
		return nil
	}
	return c.Initiative[0].Value
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
func (s *Service) EndTurn(ctx context.Context, who Actor, to string) (*Game, error) {
	p := s.pin()
	o, err := p.readOwn(ctx, who)
	if err != nil {
		return nil, err
	}
	if o.combatant == nil {
		return nil, Conflictf("%s is not in the game", o.entity.Name)
	}
	id := o.combatant.ID
	action := CombatNext
	if to != "" {
		action = CombatPass
	}
	return p.controlCombat(ctx, action, to, func(g *Game) error {
		if !g.Started || g.CombatantID != id {
			return Conflictf("it is not %s's turn", o.entity.Name)
		}
		return nil
	})
}

// InitiativeRequest names the combatants asked to roll and their seats
// (the characters' ids): a client rolls when its seat is listed.
type InitiativeRequest struct {
	Combatants []string `json:"combatants"`
	Seats      []string `json:"seats"`
}

// initiativeRequest is initiativeRequested for the seated characters'
// combatants (those of ids, every one when ids is empty) that players see
// and that have no initiative yet; nil when there are none.
func initiativeRequest(tx Tx, campaignID string, combatants []*Combatant, ids []string) (*Event, error) {
	seats, err := tx.Seats(campaignID)
	if err != nil {
		return nil, err
	}
	held := map[string]bool{}
	for _, st := range seats {
		if st.Taken() {
			held[st.EntityID] = true
		}
	}
	req := InitiativeRequest{Combatants: []string{}, Seats: []string{}}
	for _, c := range combatants {
		if c.Hidden || c.EntityID == "" || !held[c.EntityID] || (len(ids) > 0 && !slices.Contains(ids, c.ID)) {
			continue
		}
		if _, rolled := numberOf(firstInitiativeValue(c)); rolled {
			continue
		}
		req.Combatants = append(req.Combatants, c.ID)
		req.Seats = append(req.Seats, c.EntityID)
	}
	if len(req.Combatants) == 0 {
		return nil, nil
	}
	return &Event{Name: EventInitiativeRequested, Data: &req}, nil
}

// AskInitiative asks the seated players among the combatants (every one
// when ids is empty) who have not rolled initiative to roll it. It
// returns whom it asked.
func (s *Service) AskInitiative(ctx context.Context, ids []string) (*InitiativeRequest, error) {
	p := s.pin()
	out := &InitiativeRequest{Combatants: []string{}, Seats: []string{}}
	err := p.write(ctx, func(tx Tx) ([]Event, error) {
		c, err := p.primaryCampaign(tx)
		if err != nil {
			return nil, err
		}
		combatants, err := tx.Combatants(c.ID)
		if err != nil {
			return nil, err
		}
		if _, err := pick(combatants, ids); err != nil {
			return nil, err
		}
		ask, err := initiativeRequest(tx, c.ID, combatants, ids)
		if err != nil || ask == nil {
			return nil, err
		}
		out = ask.Data.(*InitiativeRequest)
		return []Event{*ask}, nil
	})
	return out, err
}
