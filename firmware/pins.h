// The ONE pin map of the tower (Arduino Uno pin numbers, as Firmata numbers them:
// D0-D13 are 0-13, A0-A5 are 14-19). The host keeps the same numbers in
// src/hardware/tower-protocol.ts; tests/firmware/protocol.test.ts reads this
// file and fails when the two differ. Keep one `#define NAME number` per line.
#ifndef DICE_TOWER_PINS_H
#define DICE_TOWER_PINS_H

#define PIN_SERIAL_RX     0   // USB serial to the host (Firmata), not available to Firmata
#define PIN_SERIAL_TX     1
#define PIN_BUTTON        2   // push button to GND, internal pull-up: active low
#define PIN_TRAY_SENSOR   4   // IR break-beam receiver or limit switch to GND, pull-up: low = tray in place
#define PIN_LIGHT         5   // LED strip through a logic-level MOSFET (PWM, Timer0)
#define PIN_TRAY_SERVO    9   // tray servo signal (OC1A: pulses made by Timer1 in hardware)
#define PIN_SPARE_SERVO   10  // second Timer1 servo output (OC1B), free for the host
#define PIN_STATUS_LED    13  // on-board LED: on = ready, fast blink = busy, slow blink = fault

#define TOTAL_PINS        20
#define TOTAL_ANALOG_PINS 6
#define FIRST_ANALOG_PIN  14

#endif
