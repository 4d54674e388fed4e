// lights
